package demo

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

// Text the demo streams.
const (
	intro = "I'm the offline demo model, so I'll walk through how a task runs. Let me plan this out."

	question        = "How would you like the result?"
	choiceSummary   = "A short summary"
	choiceChecklist = "A step-by-step checklist"

	connect = "This was Errand's offline demo model, so no real work was done. " +
		"To connect a real model — OpenAI, Ollama, LM Studio, OpenRouter or any OpenAI-compatible server — " +
		"choose **Connect a model** (or Settings) and pick a provider."

	// nudgePrefix starts the messages the agent runner adds on its own.
	nudgePrefix = "(automatic)"

	// echoLen is the most characters of the user's words the demo repeats.
	echoLen = 60
)

// Reply answers one request as the demo model: the agent script when the
// request offers tools, a chat reply otherwise. It reads only the request,
// so it is safe for concurrent use.
//
// The agent script looks at the messages after the last user message (the
// current task so far). With none, it is step 1: a short plan and
// send_update. After a send_update result it is step 2: ask_user with two
// choices. After the ask_user result (the user's answer) it is step 3: an
// answer shaped by that choice and task_complete. A prompt that starts with
// "remember" or "forget" calls that tool instead (see memoryStart), and one
// that starts with "echo" an MCP server's echo tool (see mcpStart), then
// reports its result with task_complete. Anything else, including a
// runner's "(automatic)" nudge, gets task_complete alone.
//
// When the request offers update_plan, step 1 writes a plan first (then
// the update), and step 3's answer marks every step done before
// task_complete; a reflection (a request offering reflect alone) finds
// the goal achieved.
//
// Its chat replies open in turn (see openers), counted over the process's
// Reply calls; each server counts its own (see script).
func Reply(req *compat.Request) compat.Reply {
	return reply(req, &replies)
}

// script is Reply with a count of chat replies of its own: a server's
// regenerated reply opens differently from the one before, however many
// other servers in the process answer meanwhile.
func script() func(*compat.Request) compat.Reply {
	var chats atomic.Uint64
	return func(req *compat.Request) compat.Reply { return reply(req, &chats) }
}

func reply(req *compat.Request, chats *atomic.Uint64) compat.Reply {
	var r compat.Reply
	switch {
	case req.AsksForSummary():
		r = summaryReply(req)
	case len(req.Tools) == 0:
		r = chatReply(req, chats.Add(1))
	case reflecting(req):
		r = reflectReply(req)
	default:
		r = agentReply(req)
	}
	if !r.Failed() {
		r.Reasoning = thinking(r)
	}
	r.ChunkDelay = WordDelay
	return r
}

// thinking is the demo model's short reasoning before a reply, streamed
// as reasoning_content like a thinking model's: what it is about to do.
func thinking(r compat.Reply) string {
	if len(r.ToolCalls) > 0 {
		return "The next step is clear, so I'll call " + r.ToolCalls[0].Name + " now."
	}
	return "I'm the offline demo model; I'll answer in a few words."
}

func agentReply(req *compat.Request) compat.Reply {
	if r, ok := agentScript(req); ok {
		return r
	}
	u := req.LastUser()
	if u < 0 {
		return finish(req)
	}
	prompt := req.Messages[u].Text()
	tail := req.Messages[u+1:]
	if len(tail) == 0 {
		if isNudge(prompt) {
			return finish(req)
		}
		if r, ok := memoryStart(req, prompt); ok {
			return r
		}
		if r, ok := mcpStart(req, prompt); ok {
			return r
		}
		if r, ok := writeStart(req, prompt); ok {
			return r
		}
		if planned(req) {
			return withCall(req, withAcknowledgement(req, intro), ToolUpdatePlan, planArgs(0))
		}
		return withCall(req, withAcknowledgement(req, intro), ToolSendUpdate, map[string]any{"message": "Planning: " + echo(prompt)})
	}
	last := tail[len(tail)-1]
	if last.Role != "tool" {
		return finish(req)
	}
	switch name := calledTool(tail, last.ToolCallID); name {
	case ToolUpdatePlan:
		return afterPlan(req, prompt, tail)
	case ToolSendUpdate:
		return withCall(req, "", ToolAskUser, map[string]any{
			"question": question,
			"choices":  []string{choiceSummary, choiceChecklist},
		})
	case ToolRemember, ToolForget:
		return memoryDone(req, name, last.Text())
	case ToolAskUser:
		text, shape := answer(prompt, last.Text())
		return withPlanDone(req, text, prompt, shape)
	case "":
		return finish(req)
	case echoTool(req):
		return mcpDone(req, name, last.Text())
	case ToolWriteFile:
		return writeDone(req, last.Text())
	default:
		return finish(req)
	}
}

// answer writes step 3's reply, shaped by the user's choice, and names
// the shape for the summary.
func answer(prompt, choice string) (text, shape string) {
	c := strings.ToLower(choice)
	if strings.Contains(c, "checklist") || strings.Contains(c, "step") {
		return "Here's a step-by-step checklist for “" + echo(prompt) + "”:\n\n" +
			"1. Understand the request and plan the steps.\n" +
			"2. Report progress as each step starts (send_update).\n" +
			"3. Ask whenever a decision is yours (ask_user), like the question I just asked.\n" +
			"4. Do the work, one tool call at a time.\n" +
			"5. Wrap up with a summary (task_complete).\n\n" + connect, "a checklist"
	}
	return "Here's a short summary for “" + echo(prompt) + "”: a real model would break the request into steps, " +
		"tell you how it is going with progress updates, ask when a choice is yours, " +
		"and finish with a summary of what it did.\n\n" + connect, "a short summary"
}

// summaryReply answers a summarisation request (when the conversation
// has outgrown the context window) with a scripted summary that names the
// requests it saw.
func summaryReply(req *compat.Request) compat.Reply {
	var asked []string
	if u := req.LastUser(); u >= 0 {
		for _, line := range strings.Split(req.Messages[u].Text(), "\n") {
			if said, ok := strings.CutPrefix(line, "User: "); ok && len(asked) < 5 {
				asked = append(asked, "“"+echo(said)+"”")
			}
		}
	}
	text := "Summary (demo model): the earlier messages walked through demo tasks"
	if len(asked) > 0 {
		text += "; the person asked " + strings.Join(asked, ", ")
	}
	return compat.Reply{Text: text + ". Each task ran its steps and finished."}
}

// openers start the chat replies in turn: a regenerated reply or a
// variation reads differently from the one before, as a real model's would.
var openers = []string{
	"Hi! I'm Errand's offline demo model.",
	"Hello, this is Errand's offline demo model speaking.",
	"Hey there! You're talking to Errand's offline demo model.",
	"Greetings from Errand's offline demo model.",
}

// replies counts the chat replies Reply gave (safe for concurrent use).
var replies atomic.Uint64

// chatReply is the n-th chat reply.
func chatReply(req *compat.Request, n uint64) compat.Reply {
	said := ""
	if u := req.LastUser(); u >= 0 {
		said = echo(req.Messages[u].Text())
	}
	text := openers[n%uint64(len(openers))] + " No real model is connected, so I can't really answer"
	if said != "" {
		text += " “" + said + "”"
	}
	text += ". To chat with a real model, choose Connect a model (or Settings) and pick a provider. " +
		"Meanwhile, choose the Agent mode (or start a message with /task) to see how a task runs: a plan, progress updates, a question for you, a check of the result and a summary."
	return compat.Reply{Text: withAcknowledgement(req, text)}
}

// finish ends the task: task_complete alone, or text if that tool is
// not offered.
func finish(req *compat.Request) compat.Reply {
	return withCall(req, "", ToolTaskComplete, map[string]any{"summary": "The demo task is finished."})
}

// withCall returns text followed by a call of tool with args, or, when the
// request does not offer tool, the text with a note instead of the call.
func withCall(req *compat.Request, text, tool string, args map[string]any) compat.Reply {
	if !req.HasTool(tool) {
		note := "(The demo would call " + tool + " here, but this request does not offer that tool.) " + connect
		return compat.Reply{Text: strings.TrimSpace(text + "\n\n" + note)}
	}
	data, err := json.Marshal(args)
	if err != nil {
		panic(err) // args are maps of strings; this cannot fail
	}
	return compat.Reply{Text: text, ToolCalls: []chat.ToolCall{{Name: tool, Arguments: string(data)}}}
}

// calledTool names the tool of the call with that id among msgs' assistant
// messages, or returns "".
func calledTool(msgs []compat.Message, id string) string {
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.ID == id {
				return tc.Function.Name
			}
		}
	}
	return ""
}

// echo shortens what the user said for repeating it: whitespace collapsed,
// cut at a word boundary to at most echoLen characters plus an ellipsis.
func echo(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= echoLen {
		return s
	}
	runes := []rune(s)
	cut := string(runes[:echoLen])
	if i := strings.LastIndex(cut, " "); i > echoLen/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

const (
	nudgePrefix = "(automatic)"
	slowWords   = 400
	slowDelay   = 50 * time.Millisecond
	// [slow-code] streams a Go code block of this many lines, a line a chunk.
	slowCodeLines = 400
	// What [write] writes.
	writePath    = "hello.txt"
	writeContent = "Hello from Errand"
	// [loop] sends this many updates (one a step), then completes.
	loopUpdates = 3
	// What [command] runs.
	commandLine = "ls -la && echo done"
	// What [mcp-echo] calls: the echo tool of an MCP server named
	// "everything" (server-everything), with this message.
	mcpEchoTool    = "everything__echo"
	mcpEchoMessage = "hello from the MCP server"
	// What [mcp-image] calls: server-everything's tiny image.
	mcpImageTool = "everything__get-tiny-image"
	// What [remember] remembers, for every conversation.
	rememberKey   = "favourite editor"
	rememberValue = "helix"
	// factsHeader starts the facts in the agent's system prompt.
	factsHeader = "Facts you were asked to remember (the person can edit them):"
	// What [fail] answers the first time.
	failMessage = "The mock model refuses the first request of this prompt"
	// thinkDelay is slept before each chunk of [think]'s first step: its
	// reasoning streams for a few seconds, so the live block is seen.
	thinkDelay = 80 * time.Millisecond
)

// hurry is opened by POST /mock/hurry: the slow streams in flight ([slow],
// [slow-code], [think]'s reasoning) then send the rest at once; later ones
// are slow again.
var hurry = newGate()

// laterGate is closed by POST /mock/later: [later] thinks until then (the
// test opens another conversation meanwhile), and asks at once after.
var (
	laterGate    = make(chan struct{})
	releaseLater = sync.OnceFunc(func() { close(laterGate) })
)

// gate is a channel that can be closed and replaced, over and over.
type gate struct {
	mu sync.Mutex
	ch chan struct{}
}

func newGate() *gate { return &gate{ch: make(chan struct{})} }

// current is the channel the next open closes.
func (g *gate) current() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.ch
}

// open closes the current channel and puts a fresh one in its place.
func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.ch)
	g.ch = make(chan struct{})
}

// thinkReasoning is what [think] thinks at its first step.
const thinkReasoning = "The person wants the sum of the first ten odd numbers. " +
	"Those are 1, 3, 5, 7, 9, 11, 13, 15, 17 and 19. " +
	"Adding them in pairs from both ends gives five pairs of 20, so the sum is 100. " +
	"It is also ten squared, which checks it. I will say where I am, then answer."

// thinkAnswer is [think]'s answer, at its second step.
const thinkAnswer = "The sum of the first ten odd numbers is **100**."

// summaryText answers every summarisation request (when a conversation
// outgrows the model's context window).
const summaryText = "Summary from the mock model: the person sent long messages and each was echoed back."

// xssText is model output that would run script if it were rendered as
// HTML or its links were followed: every payload sets window.__pwned.
const xssText = "Here is <img src=x onerror=\"window.__pwned=1\"> an image.\n\n" +
	"<script>window.__pwned=2</script>\n\n" +
	"A [javascript link](javascript:window.__pwned=3), " +
	"a <a href=\"javascript:window.__pwned=4\">raw link</a>, " +
	"an autolink <javascript:window.__pwned=5>, " +
	"a [data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD02PC9zY3JpcHQ+), " +
	"an image ![pic](javascript:window.__pwned=7) " +
	"and a [safe link](https://example.com/docs).\n\n" +
	"<iframe src=\"javascript:window.__pwned=8\"></iframe>\n\n" +
	"<svg onload=\"window.__pwned=9\"></svg>\n\n" +
	"| a | b |\n|---|---|\n| <b onmouseover=\"window.__pwned=10\">cell</b> | `code` |\n\n" +
	"```js\nwindow.__pwned = 11; // only text\n```"

// markdownText shows what replies can format.
const markdownText = "## Plan\n\n" +
	"Here is what I found, in **three** parts:\n\n" +
	"1. Compare the *options*\n2. Pick one\n3. Book it\n\n" +
	"| City | Flights | Price |\n|:--|--:|--:|\n| Lisbon | 4 | €120 |\n| Porto | 2 | €95 |\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n" +
	"- [x] searched\n- [ ] booked\n\n" +
	"> Prices change daily. See [the site](https://example.com)."

// wideTable is a table wider than any bubble: it must scroll sideways,
// never break its words letter by letter.
const wideTable = "Compared:\n\n" +
	"| Destination | Accommodation | Transportation | Neighbourhood | Recommendation | Availability | Cancellation |\n" +
	"|---|---|---|---|---|---|---|\n" +
	"| Lisbon | Guesthouse | Underground | Alfama | Wonderful | September | Refundable |\n" +
	"| Porto | Apartment | Streetcar | Ribeira | Delightful | November | Nonrefundable |"

// script answers one request; see the package documentation.
func script(req *compat.Request) compat.Reply {
	if req.AsksForSummary() {
		return compat.Reply{Text: summaryText}
	}
	if len(req.Messages) > 0 && strings.Contains(req.Messages[0].Text(), "[form-agent]") {
		return formAgent(req)
	}
	if r, ok := planScript(req); ok {
		return r
	}
	p := promptIndex(req.Messages)
	if p < 0 {
		return compat.Reply{Text: "Echo: "}
	}
	prompt := req.Messages[p].Text()
	if v := variationOf(req); v != "" {
		return compat.Reply{Text: v + " from " + req.Model + ": " + prompt}
	}
	if len(req.Tools) == 0 || strings.Contains(prompt, "[chat]") {
		return compat.Reply{Text: "Echo: " + prompt}
	}
	tail := req.Messages[p+1:]
	replied := 0 // assistant messages since the prompt
	for _, m := range tail {
		if m.Role == "assistant" {
			replied++
		}
	}
	switch {
	case strings.Contains(prompt, "[tools]"):
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Function.Name)
		}
		sort.Strings(names)
		first, _, _ := strings.Cut(req.Messages[0].Text(), "\n")
		return call("Tools: "+strings.Join(names, ", ")+" | Instructions: "+first, "task_complete", map[string]any{"summary": "listed"})
	case strings.Contains(prompt, "[complete]"):
		if replied == 0 {
			return call("Working on it.", "send_update", map[string]any{"message": "Halfway there"})
		}
		return call("All done.", "task_complete", map[string]any{"summary": "Finished the e2e task"})
	case strings.Contains(prompt, "[ask]"):
		if answer, ok := askAnswer(tail); ok {
			return call("You chose "+answer+".", "task_complete", map[string]any{"summary": "Color chosen: " + answer})
		}
		if replied == 0 {
			return call("", "ask_user", map[string]any{"question": "Which color?", "choices": []string{"Red", "Blue"}})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[xss]"):
		return call(xssText, "task_complete", map[string]any{
			"summary": "Done <img src=x onerror=\"window.__pwned=12\"> [x](javascript:window.__pwned=13)",
		})
	case strings.Contains(prompt, "[table]"):
		return call(wideTable, "task_complete", map[string]any{"summary": "Compared two cities"})
	case strings.Contains(prompt, "[markdown]"):
		return call(markdownText, "task_complete", map[string]any{"summary": "Formatted the **plan**"})
	case strings.Contains(prompt, "[later]"):
		if answer, ok := askAnswer(tail); ok {
			return call("You chose "+answer+".", "task_complete", map[string]any{"summary": "Color chosen: " + answer})
		}
		if replied == 0 {
			<-laterGate
			return call("", "ask_user", map[string]any{"question": "Which color?", "choices": []string{"Red", "Blue"}})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[fail]"):
		if failOnce(prompt) {
			return compat.Reply{Status: 400, ErrorMessage: failMessage}
		}
		return call("Recovered.", "task_complete", map[string]any{"summary": "Finished after a retry"})
	case strings.Contains(prompt, "[think]"):
		return think(req, replied)
	case strings.Contains(prompt, "[stall]"):
		if stallTwice(prompt) {
			return compat.Reply{Stall: compat.StallAfterHeaders}
		}
		return call("Recovered.", "task_complete", map[string]any{"summary": "Finished after the stall"})
	case strings.Contains(prompt, "[write-then-ask]"):
		return writeThenAsk(tail)
	case strings.Contains(prompt, "[write]"):
		if result, ok := toolResult(tail, "write_file"); ok {
			return call("Result: "+result, "task_complete", map[string]any{"summary": "Finished the write task"})
		}
		if replied == 0 {
			return call("I will write the file.", "write_file", map[string]any{"path": writePath, "content": writeContent})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[run] "):
		return runCommands(prompt, replied)
	case strings.Contains(prompt, "[call] "):
		return callTool(prompt, tail, replied)
	case strings.Contains(prompt, "[command]"):
		if result, ok := toolResult(tail, "run_command"); ok {
			return call("Result: "+result, "task_complete", map[string]any{"summary": "Finished the command task"})
		}
		if replied == 0 {
			return call("I will run a command.", "run_command", map[string]any{"command": commandLine})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[loop]"):
		if replied < loopUpdates {
			n := replied + 1
			return call(fmt.Sprintf("Step %d.", n), "send_update", map[string]any{"message": fmt.Sprintf("Update %d", n)})
		}
		return call("Looped.", "task_complete", map[string]any{"summary": fmt.Sprintf("Finished after %d updates", loopUpdates)})
	case strings.Contains(prompt, "[remember]"):
		if result, ok := toolResult(tail, "remember"); ok {
			return call("Result: "+result, "task_complete", map[string]any{"summary": "Remembered"})
		}
		if replied == 0 {
			return call("I will remember that.", "remember", map[string]any{"key": rememberKey, "value": rememberValue, "scope": "global"})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[mcp-echo]"):
		if result, ok := toolResult(tail, mcpEchoTool); ok {
			return call("Result: "+result, "task_complete", map[string]any{"summary": "Called the MCP echo tool"})
		}
		if replied == 0 {
			return call("I will call the MCP server's echo tool.", mcpEchoTool, map[string]any{"message": mcpEchoMessage})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[mcp-image]"):
		if _, ok := toolResult(tail, mcpImageTool); ok {
			return call("Here is the image.", "task_complete", map[string]any{"summary": "Showed the MCP server's image"})
		}
		if replied == 0 {
			return call("", mcpImageTool, map[string]any{})
		}
		return call("", "task_complete", map[string]any{"summary": "done"})
	case strings.Contains(prompt, "[attachments]"):
		return call("Attachments seen: "+attachmentsSeen(req.Messages[p]), "task_complete", map[string]any{"summary": "Described the attachments"})
	case strings.Contains(prompt, "[facts]"):
		return call("Facts: "+factLines(req.Messages), "task_complete", map[string]any{"summary": "Listed the facts"})
	case strings.Contains(prompt, "[slow-code]"):
		r := call(slowCode(), "task_complete", map[string]any{"summary": "Finished the slow code"})
		r.ChunkDelay = slowDelay
		r.Hurry = hurry.current()
		return r
	case strings.Contains(prompt, "[slow]"):
		words := make([]string, slowWords)
		for i := range words {
			words[i] = fmt.Sprintf("word%d", i+1)
		}
		r := call(strings.Join(words, " "), "task_complete", map[string]any{"summary": "Finished the slow task"})
		r.ChunkDelay = slowDelay
		r.Hurry = hurry.current()
		return r
	default:
		return call("Done: "+prompt, "task_complete", map[string]any{"summary": "done"})
	}
}

// slowCode is [slow-code]'s reply: a fenced Go code block whose lines have
// no spaces, so that each is one chunk of the stream.
func slowCode() string {
	var sb strings.Builder
	sb.WriteString("```go\nfunc slow(){\n")
	for i := 1; i <= slowCodeLines; i++ {
		fmt.Fprintf(&sb, "\tv%03d=append(v%03d,\"abcdefghijklmnopqrstuvwxyz0123456789\")\n", i, i)
	}
	sb.WriteString("}\n```")
	return sb.String()
}

// variationOf is "Variation N of M" when the request writes a variation
// (its system message says which), else "".
func variationOf(req *compat.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	_, after, ok := strings.Cut(req.Messages[0].Text(), "\n## Variation ")
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(after, "\n")
	return "Variation " + line
}

// think scripts [think]: reasoning streamed slowly and a send_update call,
// then the answer (saying the reasoning effort asked for, if one was) and
// task_complete.
func think(req *compat.Request, replied int) compat.Reply {
	if replied == 0 {
		r := call("", "send_update", map[string]any{"message": "Adding the odd numbers"})
		r.Reasoning = thinkReasoning
		r.ChunkDelay = thinkDelay
		r.Hurry = hurry.current()
		return r
	}
	answer := thinkAnswer
	if req.ReasoningEffort != "" {
		answer += " (Reasoning effort: " + req.ReasoningEffort + ".)"
	}
	return call(answer, "task_complete", map[string]any{"summary": "Added the first ten odd numbers"})
}

// factLines are the "- key: value" lines of the system message's facts,
// joined with " | ", or "none".
func factLines(msgs []compat.Message) string {
	if len(msgs) == 0 || msgs[0].Role != "system" {
		return "none"
	}
	_, facts, found := strings.Cut(msgs[0].Text(), factsHeader)
	if !found {
		return "none"
	}
	var lines []string
	for _, l := range strings.Split(facts, "\n") {
		if strings.HasPrefix(l, "- ") {
			lines = append(lines, strings.TrimPrefix(l, "- "))
		}
	}
	if len(lines) == 0 {
		return "none"
	}
	return strings.Join(lines, " | ")
}

// formAgent scripts the [form-agent] agent; see the package documentation.
func formAgent(req *compat.Request) compat.Reply {
	if answer, ok := askAnswer(req.Messages); ok {
		return call("Got: "+answer, "task_complete", map[string]any{"summary": "form received"})
	}
	return call("Hello from the form agent.", "ask_user", map[string]any{
		"question": "Your details",
		"fields": []map[string]any{
			{"name": "name", "label": "Name", "type": "text", "required": true},
			{"name": "age", "label": "Age", "type": "number", "min": 0, "max": 130},
		},
		"input": map[string]any{"disabled": true, "placeholder": "Fill in the form"},
	})
}

// promptIndex returns the index of the task's prompt: the last user
// message that is not an automatic nudge, or failing that the last user
// message, or -1.
func promptIndex(msgs []compat.Message) int {
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		if !strings.HasPrefix(strings.TrimSpace(msgs[i].Text()), nudgePrefix) {
			return i
		}
		if last < 0 {
			last = i
		}
	}
	return last
}

// failed remembers the [fail] prompts already refused once.
var failed sync.Map

// failOnce reports whether this is the first request for prompt.
func failOnce(prompt string) bool {
	_, seen := failed.LoadOrStore(prompt, true)
	return !seen
}

// stalls counts the requests of each [stall] prompt.
var stalls = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// stallTwice reports whether this is one of the first two requests for
// prompt: the call and the one retry that Errand makes of a stalled call.
func stallTwice(prompt string) bool {
	stalls.Lock()
	defer stalls.Unlock()
	stalls.n[prompt]++
	return stalls.n[prompt] <= 2
}

// toolResult returns the result of the last call of tool in msgs.
func toolResult(msgs []compat.Message, tool string) (string, bool) {
	calls := map[string]bool{}
	result, ok := "", false
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == tool {
				calls[tc.ID] = true
			}
		}
		if m.Role == "tool" && calls[m.ToolCallID] {
			result, ok = m.Text(), true
		}
	}
	return result, ok
}

// askAnswer returns the result of the last ask_user call in msgs.
func askAnswer(msgs []compat.Message) (string, bool) {
	asks := map[string]bool{}
	answer, ok := "", false
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == "ask_user" {
				asks[tc.ID] = true
			}
		}
		if m.Role == "tool" && asks[m.ToolCallID] {
			answer, ok = m.Text(), true
		}
	}
	return answer, ok
}

// call is a reply of text and one tool call.
func call(text, tool string, args map[string]any) compat.Reply {
	data, err := json.Marshal(args)
	if err != nil {
		panic(err) // maps of strings always marshal
	}
	return compat.Reply{Text: text, ToolCalls: []chat.ToolCall{{Name: tool, Arguments: string(data)}}}
}

// writeThenAsk writes hello.txt, then asks a question and waits: the
// test stops the task there, with a file changed (tests/undo.test.mjs).
func writeThenAsk(tail []compat.Message) compat.Reply {
	if _, ok := toolResult(tail, "write_file"); !ok {
		return call("I will write the file.", "write_file", map[string]any{"path": writePath, "content": writeContent})
	}
	if answer, ok := askAnswer(tail); ok {
		return call("", "task_complete", map[string]any{"summary": "Answered: " + answer})
	}
	return call("", "ask_user", map[string]any{"question": "Shall I go on?", "choices": []string{"Yes", "No"}})
}

// callTool calls the tool named after "[call] " with the JSON object that
// follows the name ({} when there is none), then completes with its result.
func callTool(prompt string, tail []compat.Message, replied int) compat.Reply {
	_, rest, _ := strings.Cut(prompt, "[call] ")
	name, raw, _ := strings.Cut(strings.TrimSpace(rest), " ")
	if result, ok := toolResult(tail, name); ok {
		return call("Result: "+result, "task_complete", map[string]any{"summary": "Called " + name})
	}
	if replied > 0 {
		return call("", "task_complete", map[string]any{"summary": "done"})
	}
	args := map[string]any{}
	if raw = strings.TrimSpace(raw); raw != "" {
		_ = json.Unmarshal([]byte(raw), &args)
	}
	return call("", name, args)
}

// runCommands runs the commands after "[run] " (separated by " ;; "), one
// a step, then completes.
func runCommands(prompt string, replied int) compat.Reply {
	_, rest, _ := strings.Cut(prompt, "[run] ")
	commands := strings.Split(strings.TrimSpace(rest), " ;; ")
	if replied < len(commands) {
		return call(fmt.Sprintf("Command %d.", replied+1), "run_command", map[string]any{"command": commands[replied]})
	}
	return call("Ran them.", "task_complete", map[string]any{"summary": fmt.Sprintf("Ran %d commands", len(commands))})
}

// codeWord is what [attachments] looks for in the prompt's text: a word
// like PELICAN-42 that only an attached text file holds.
var codeWord = regexp.MustCompile(`\b[A-Z]{3,}-[0-9]+\b`)

// attachmentsSeen says what the prompt message carried: its image parts
// (with the type their data: URL names) and the code word in its text,
// as "2 images (image/png, image/jpeg); text with PELICAN-42".
func attachmentsSeen(m compat.Message) string {
	var types []string
	for _, part := range m.Content.Parts {
		if part.Type != "image_url" {
			continue
		}
		var img struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(part.ImageURL, &img)
		mime, _, _ := strings.Cut(strings.TrimPrefix(img.URL, "data:"), ";")
		types = append(types, mime)
	}
	seen := fmt.Sprintf("%d images", len(types))
	if len(types) == 1 {
		seen = "1 image"
	}
	if len(types) > 0 {
		seen += " (" + strings.Join(types, ", ") + ")"
	}
	if w := codeWord.FindString(m.Text()); w != "" {
		return seen + "; text with " + w
	}
	return seen + "; no code word in the text"
}

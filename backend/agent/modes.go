package agent

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/mode"
)

// classifyTimeout bounds Auto mode's classification call.
const classifyTimeout = 15 * time.Second

// classifyPrompt is the one cheap call Auto mode may make when its local
// decision is unsure.
const classifyPrompt = `Decide how an assistant should handle the user's message. Answer with one word: "task" if it needs several steps or tools (files, code, running commands, fetching pages), "chat" if a direct answer will do.`

// noToolsNotice tells the person why a message was answered directly.
const noToolsNotice = "The model %s does not support tools, so Errand answered directly instead of working on a task. " +
	"To let Errand work on tasks, choose a model that supports tools (function calling) in Settings — for example llama3.1, qwen2.5 or mistral-nemo on Ollama, or any OpenAI model. " +
	"Until the settings change, Auto mode answers directly with this model."

// Send answers the person's message in the conversation's mode: a leading
// /task or /chat forces one; in Auto, Errand decides (see decide). The
// task records how its mode was chosen.
func (r *Runner) Send(ctx context.Context, conversationID, text string) (chat.Task, error) {
	return r.SendWith(ctx, conversationID, text, nil)
}

// SendWith is Send of a message that carries files (checked and staged
// by backend/attach); with files, the text may be empty.
func (r *Runner) SendWith(ctx context.Context, conversationID, text string, atts []chat.Attachment) (chat.Task, error) {
	forced, rest, ok, err := mode.Forced(text)
	if ok && len(atts) > 0 {
		err = nil // "/task" and files: the files are the message
	}
	if err != nil {
		return chat.Task{}, err
	}
	if ok {
		return r.startAs(ctx, conversationID, rest, forced, beginning{decision: &chat.ModeDecision{By: chat.DecidedForced}, attachments: atts})
	}
	conv, err := r.opts.Store.GetConversation(ctx, conversationID)
	if err != nil {
		return chat.Task{}, err
	}
	if conv.Mode == chat.ModeAgent || conv.Mode == chat.ModeChat {
		return r.startAs(ctx, conversationID, text, conv.Mode, beginning{attachments: atts})
	}
	how := beginning{attachments: atts}
	m, err := r.decide(ctx, conv, text, &how)
	if err != nil {
		return chat.Task{}, err
	}
	return r.startAs(ctx, conversationID, text, m, how)
}

// startAs is StartTask with how the mode was chosen.
func (r *Runner) startAs(ctx context.Context, conversationID, text string, m chat.TaskMode, how beginning) (chat.Task, error) {
	text = strings.TrimSpace(text)
	if text == "" && len(how.attachments) == 0 {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "the message is empty")
	}
	return r.begin(ctx, conversationID, text, m, how)
}

// decide is Auto mode's choice for one message: the local decision, and,
// when it is unsure and the settings allow, one short classification call,
// whose tokens and cost how carries to the task it starts. A model that
// refused tools is only ever answered directly.
func (r *Runner) decide(ctx context.Context, conv chat.Conversation, text string, how *beginning) (chat.TaskMode, error) {
	def := r.agentOf(ctx, conv.AgentID)
	provider, err := r.provider(ctx, conv.ID, def.Model)
	if err != nil {
		return "", err
	}
	if r.refusesTools(ctx, provider.Model()) {
		how.decision = &chat.ModeDecision{By: chat.DecidedAuto, Reason: "the model does not support tools"}
		return chat.ModeChat, nil
	}
	depth := 0
	if _, had, err := r.opts.Store.LastTaskAgent(ctx, conv.ID); err != nil {
		return "", err
	} else if had {
		depth = 2
	}
	d := mode.Decide(text, depth)
	how.decision = &chat.ModeDecision{By: chat.DecidedAuto, Reason: strings.Join(d.Reasons, ", ")}
	settings := r.settings(ctx)
	if d.Sure || !settings.AutoAskModel {
		return d.Mode, nil
	}
	m, usage, ok := classify(ctx, provider, text)
	how.paid, how.paidCost = usage, settings.Prices[provider.Model()].Cost(usage)
	if !ok {
		return d.Mode, nil
	}
	how.decision = &chat.ModeDecision{By: chat.DecidedAuto, Reason: "asked the model"}
	return m, nil
}

// classify asks the model whether text is a task; ok is false when the
// call failed or the answer was neither. usage is what the call used.
func classify(ctx context.Context, p llm.Provider, text string) (chat.TaskMode, chat.Usage, bool) {
	ctx, cancel := context.WithTimeout(ctx, classifyTimeout)
	defer cancel()
	resp, err := p.Stream(ctx, llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: classifyPrompt},
		{Role: chat.RoleUser, Content: text},
	}}, llm.Deltas{})
	if err != nil {
		slog.Warn("auto mode: the classification call failed; the local decision stands", "err", chat.Details(err))
		return "", resp.Usage, false
	}
	switch a := strings.ToLower(resp.Content); {
	case strings.Contains(a, "task"):
		return chat.ModeAgent, resp.Usage, true
	case strings.Contains(a, "chat"):
		return chat.ModeChat, resp.Usage, true
	}
	return "", resp.Usage, false
}

// RerunMessage answers the person's message again, the other way: mode
// is "agent" (run as a task) or "chat" (just answer). The message is sent
// again as a new version of itself (a branch from the message before it),
// so the first answer stays one click away on its version arrows.
func (r *Runner) RerunMessage(ctx context.Context, conversationID, messageID string, m chat.TaskMode) (chat.Task, error) {
	if m != chat.ModeAgent && m != chat.ModeChat {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "a message is re-run as agent or chat, not %s", chat.Quote(string(m)))
	}
	if err := r.idle(conversationID, "a message cannot be re-run"); err != nil {
		return chat.Task{}, err
	}
	msg, err := r.opts.Store.GetMessage(ctx, conversationID, messageID)
	if err != nil {
		return chat.Task{}, err
	}
	if msg.Role != chat.RoleUser {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "only your own messages in this conversation can be re-run")
	}
	how := beginning{decision: &chat.ModeDecision{By: chat.DecidedRerun}, from: &branchFrom{after: msg.ParentID}, attachments: msg.Attachments}
	return r.startAs(ctx, conversationID, msg.Content, m, how)
}

// toolsKey names a model by the provider settings it is used with: a
// refusal of tools is remembered for that model of that server.
func toolsKey(s chat.Settings, model string) string {
	return strings.Join([]string{s.Provider.Preset, s.Provider.BaseURL, model}, "\n")
}

// refusesTools reports whether the model refused tools (remembered across
// restarts, until the settings change).
func (r *Runner) refusesTools(ctx context.Context, model string) bool {
	refused, err := r.opts.Store.ToolsRefused(ctx, toolsKey(r.settings(ctx), model))
	if err != nil {
		slog.Error("read the models that refused tools", "err", err)
	}
	return refused
}

// fallBackToChat turns the task into a direct answer after the model
// refused tools: the person is told why and what to do, and Auto mode
// stops choosing a task for this model until the settings change.
func (rn *run) fallBackToChat() error {
	ctx, cancel := storeCtx()
	defer cancel()
	model := rn.provider.Model()
	if err := rn.r.opts.Store.RememberToolsRefused(ctx, toolsKey(rn.r.settings(ctx), model), time.Now()); err != nil {
		return err
	}
	slog.Warn("the model does not support tools; answering directly", "task", rn.snapshot().ID, "model", model)
	notice := rn.newMessage(chat.RoleSystem, strings.Replace(noToolsNotice, "%s", chat.Quote(model), 1))
	return rn.record(func(t *chat.Task) {
		t.Mode = chat.ModeChat
		t.Decision = &chat.ModeDecision{By: chat.DecidedFallback, Reason: "the model does not support tools"}
	}, notice)
}

package app

import (
	"context"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
)

// callTimeout bounds one bound call's database work.
const callTimeout = 10 * time.Second

func callCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), callTimeout)
}

// byID checks an id and runs f on it within a bound call's time.
func byID[T any](what, id string, f func(context.Context, string) (T, error)) (T, error) {
	if err := requireID(what, id); err != nil {
		var zero T
		return zero, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return f(ctx, id)
}

// requireID refuses a missing id, and one that cannot be an id (a huge
// one is quoted by a short prefix only).
func requireID(what, id string) error { return chat.CheckID(what, id) }

// AgentTaskRunner is the bound face of the agent: the design's
// agent:startTask, agent:stopTask and agent:userResponse, plus simple chat.
type AgentTaskRunner struct {
	runner *agent.Runner
	files  *attach.Service
}

// StartTask starts an agent task on text in the conversation and returns the
// task at once; the work goes on in the background.
func (s *AgentTaskRunner) StartTask(conversationID, text string) (_ chat.Task, err error) {
	defer recovered(&err)
	return s.start(conversationID, text, chat.ModeAgent)
}

// StartProactive starts the conversation's proactive agent: it speaks
// first, with no message from the person.
func (s *AgentTaskRunner) StartProactive(conversationID string) (_ chat.Task, err error) {
	defer recovered(&err)
	return byID("conversation", conversationID, s.runner.StartProactive)
}

// Send answers the person's message in the conversation's mode: Auto
// decides between a task and a direct answer; a leading /task or /chat
// forces one (with nothing after it, it is an error). attachmentIDs name
// files added with the Attachments service, sent with the text.
func (s *AgentTaskRunner) Send(conversationID, text string, attachmentIDs []string) (_ chat.Task, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	atts, err := attached(s.files, attachmentIDs)
	if err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.SendWith(ctx, conversationID, text, atts)
}

// RerunMessage answers the person's message again the other way: mode
// "agent" runs it as a task, "chat" just answers it.
func (s *AgentTaskRunner) RerunMessage(conversationID, messageID, mode string) (_ chat.Task, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	if err := requireID("message", messageID); err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.RerunMessage(ctx, conversationID, messageID, chat.TaskMode(mode))
}

// SendChat sends a simple chat message: one streamed reply, no agent loop.
func (s *AgentTaskRunner) SendChat(conversationID, text string) (_ chat.Task, err error) {
	defer recovered(&err)
	return s.start(conversationID, text, chat.ModeChat)
}

func (s *AgentTaskRunner) start(conversationID, text string, mode chat.TaskMode) (chat.Task, error) {
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.StartTask(ctx, conversationID, text, mode)
}

// QueueMessage adds the person's message to the conversation's working
// task without stopping it: stored as queued, it reaches the model at the
// task's next step, with the files attachmentIDs name.
func (s *AgentTaskRunner) QueueMessage(conversationID, text string, attachmentIDs []string) (_ chat.Message, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Message{}, err
	}
	atts, err := attached(s.files, attachmentIDs)
	if err != nil {
		return chat.Message{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.QueueWith(ctx, conversationID, text, atts)
}

// SendNow delivers a queued message at once: a tool call waiting for
// approval is denied for it, a paused task goes on with it.
func (s *AgentTaskRunner) SendNow(conversationID, messageID string) (err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return err
	}
	if err := requireID("message", messageID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.SendNow(ctx, conversationID, messageID)
}

// StopTask stops a task at once. Stopping a task that has ended is not an
// error: Stopped is false and Message says how it ended.
func (s *AgentTaskRunner) StopTask(taskID string) (_ agent.StopResult, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.runner.Stop)
}

// UserResponse answers the question a waiting task asked.
func (s *AgentTaskRunner) UserResponse(taskID, answer string) (err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Respond(ctx, taskID, answer)
}

// GetTask returns a task's current state.
func (s *AgentTaskRunner) GetTask(taskID string) (_ chat.Task, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.runner.Task)
}

// ApproveTool lets the tool call waiting for approval run; forTask approves
// that tool for the rest of the task.
func (s *AgentTaskRunner) ApproveTool(taskID, callID string, forTask bool) (err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Approve(ctx, taskID, callID, forTask)
}

// DenyTool refuses the tool call waiting for approval; the reason, if any,
// is passed to the model.
func (s *AgentTaskRunner) DenyTool(taskID, callID, reason string) (err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Deny(ctx, taskID, callID, reason)
}

// ContinueTask lets a task paused at a limit go on, raising that limit.
func (s *AgentTaskRunner) ContinueTask(taskID string) (err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Continue(ctx, taskID)
}

// RetryTask resumes a failed task from its last completed step.
func (s *AgentTaskRunner) RetryTask(taskID string) (_ chat.Task, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.runner.Retry)
}

// ResumeTask continues a task interrupted when Errand closed.
func (s *AgentTaskRunner) ResumeTask(taskID string) (_ chat.Task, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.runner.Resume)
}

// DismissTask ends a task interrupted when Errand closed.
func (s *AgentTaskRunner) DismissTask(taskID string) (_ chat.Task, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.runner.Dismiss)
}

// compactTimeout bounds CompactNow, which waits for the model to write a
// summary.
const compactTimeout = 5 * time.Minute

// CompactNow summarises the conversation's older messages for the model
// now; the messages stay stored and shown, and a notice "Earlier messages
// summarised" is added to the transcript (and returned). It is refused
// while a task is unfinished in the conversation.
func (s *AgentTaskRunner) CompactNow(conversationID string) (_ chat.Message, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Message{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), compactTimeout)
	defer cancel()
	return s.runner.CompactNow(ctx, conversationID)
}

// GetSummary returns the summary a notice "Earlier messages summarised"
// names: what the model sees in place of the messages before it.
func (s *AgentTaskRunner) GetSummary(summaryID string) (_ chat.Summary, err error) {
	defer recovered(&err)
	return byID("summary", summaryID, s.runner.GetSummary)
}

// Regenerate runs the task that wrote the reply replyID ("" for the last
// of the conversation's current branch) again (a chat reply or an agent
// task): the new reply is another version beside the old one. mode is ""
// to keep the task's mode, or "agent" or "chat" to run the prompt as a
// task or as a chat reply. Refused while a task runs.
func (s *AgentTaskRunner) Regenerate(conversationID, replyID, mode string) (_ chat.Task, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	if replyID != "" {
		if err := requireID("message", replyID); err != nil {
			return chat.Task{}, err
		}
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.Regenerate(ctx, conversationID, replyID, chat.TaskMode(mode))
}

// EditMessage sends text in place of the person's message messageID: a
// new branch from the message before it; the old one stays as another
// version. An empty text is refused, and so is an edit while a task runs.
func (s *AgentTaskRunner) EditMessage(conversationID, messageID, text string) (_ chat.Task, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.Task{}, err
	}
	if err := requireID("message", messageID); err != nil {
		return chat.Task{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.runner.EditAndResend(ctx, conversationID, messageID, text)
}

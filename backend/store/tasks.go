package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

const taskCols = `id, conversation_id, mode, status, original_prompt, step_count,
	started_at, ended_at, pending_question, pending_choices, error_message,
	current_tool, prompt_tokens, completion_tokens, total_tokens, model, summary,
	pending_approval, pause_reason, limits, cost_usd, active_ms, current_call_id, rev,
	context_tokens, context_limit, agent_id, ui, cache_read_tokens, cache_write_tokens`

// activeTask is the SQL condition of a task that has not ended (see
// chat.TaskStatus.Terminal).
const activeTask = `status NOT IN ('` + string(chat.StatusCompleted) + `', '` +
	string(chat.StatusCancelled) + `', '` + string(chat.StatusError) + `')`

// titleFrom makes a conversation title from its first message: one line,
// without control or bidi characters.
func titleFrom(text string) string {
	t := strings.Join(strings.Fields(chat.StripControls(text)), " ")
	const max = 60
	if r := []rune(t); len(r) > max {
		t = strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return t
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func scanTask(row interface{ Scan(...any) error }) (chat.Task, error) {
	var t chat.Task
	var started int64
	var ended sql.NullInt64
	var choices, approval, limits, ui string
	err := row.Scan(&t.ID, &t.ConversationID, &t.Mode, &t.Status, &t.OriginalPrompt,
		&t.StepCount, &started, &ended, &t.PendingQuestion, &choices, &t.ErrorMessage,
		&t.CurrentTool, &t.Usage.PromptTokens, &t.Usage.CompletionTokens,
		&t.Usage.TotalTokens, &t.Model, &t.Summary,
		&approval, &t.PauseReason, &limits, &t.CostUSD, &t.ActiveMS, &t.CurrentCallID, &t.Rev,
		&t.ContextTokens, &t.ContextLimit, &t.AgentID, &ui, &t.Usage.CacheReadTokens, &t.Usage.CacheWriteTokens)
	if err != nil {
		return t, err
	}
	if ui != "" {
		var u taskUI
		if err := json.Unmarshal([]byte(ui), &u); err != nil {
			return t, fmt.Errorf("task %s ui: %w", t.ID, err)
		}
		u.apply(&t)
	}
	if approval != "" {
		t.PendingApproval = &chat.Approval{}
		if err := json.Unmarshal([]byte(approval), t.PendingApproval); err != nil {
			return t, fmt.Errorf("task %s approval: %w", t.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(limits), &t.Limits); err != nil {
		return t, fmt.Errorf("task %s limits: %w", t.ID, err)
	}
	// A file written before costs were bounded may hold an infinite one.
	t.CostUSD = chat.ClampCost(t.CostUSD)
	t.StartedAt = fromMS(started)
	if ended.Valid {
		e := fromMS(ended.Int64)
		t.EndedAt = &e
	}
	if choices != "" && choices != "[]" {
		if err := json.Unmarshal([]byte(choices), &t.PendingChoices); err != nil {
			return t, fmt.Errorf("task %s choices: %w", t.ID, err)
		}
	}
	return t, nil
}

// checkNumbers refuses a task whose numbers could not be stored and read
// back, or sent to the window: NaN and the infinities.
func checkNumbers(t chat.Task) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"the task's cost", t.CostUSD}, {"the task's time limit", t.Limits.MaxMinutes}, {"the task's spend limit", t.Limits.MaxCostUSD}} {
		if err := chat.CheckFinite(f.name, f.v); err != nil {
			return err
		}
	}
	return nil
}

func taskArgs(t chat.Task) []any {
	var ended any
	if t.EndedAt != nil {
		ended = ms(*t.EndedAt)
	}
	choices := "[]"
	if len(t.PendingChoices) > 0 {
		b, _ := json.Marshal(t.PendingChoices)
		choices = string(b)
	}
	approval := ""
	if t.PendingApproval != nil {
		b, _ := json.Marshal(t.PendingApproval)
		approval = string(b)
	}
	limits, _ := json.Marshal(t.Limits)
	return []any{t.ID, t.ConversationID, string(t.Mode), string(t.Status), t.OriginalPrompt,
		t.StepCount, ms(t.StartedAt), ended, t.PendingQuestion, choices, t.ErrorMessage,
		t.CurrentTool, t.Usage.PromptTokens, t.Usage.CompletionTokens, t.Usage.TotalTokens,
		t.Model, t.Summary, approval, t.PauseReason, string(limits), t.CostUSD, t.ActiveMS, t.CurrentCallID, t.Rev,
		t.ContextTokens, t.ContextLimit, t.AgentID, uiOf(t), t.Usage.CacheReadTokens, t.Usage.CacheWriteTokens}
}

// taskUI is what a task shows besides its question's text, stored as one
// JSON document.
type taskUI struct {
	Multiple     bool             `json:"multiple,omitempty"`
	AllowOther   bool             `json:"allowOther,omitempty"`
	Fields       []chat.FormField `json:"fields,omitempty"`
	Input        *chat.InputHint  `json:"input,omitempty"`
	SwitchedFrom string           `json:"switchedFrom,omitempty"`
	// The newest plan revision is kept here too (the plans table holds
	// them all), so that every read of a task shows it.
	Plan        *chat.Plan         `json:"plan,omitempty"`
	Reflecting  bool               `json:"reflecting,omitempty"`
	Reflections int                `json:"reflections,omitempty"`
	Decision    *chat.ModeDecision `json:"decision,omitempty"`
	// Grants are kept here too (no column of their own): what the person
	// allowed for the rest of the task.
	Grants *taskGrants `json:"grants,omitempty"`
}

type taskGrants struct {
	Network bool     `json:"network,omitempty"`
	Tools   []string `json:"tools,omitempty"`
}

func uiOf(t chat.Task) string {
	u := taskUI{Multiple: t.PendingMultiple, AllowOther: t.PendingAllowOther, Fields: t.PendingFields, Input: t.Input, SwitchedFrom: t.SwitchedFrom,
		Plan: t.Plan, Reflecting: t.Reflecting, Reflections: t.Reflections, Decision: t.Decision}
	if t.NetworkAllowed || len(t.ApprovedTools) > 0 {
		u.Grants = &taskGrants{Network: t.NetworkAllowed, Tools: t.ApprovedTools}
	}
	if reflect.ValueOf(u).IsZero() {
		return ""
	}
	b, _ := json.Marshal(u)
	return string(b)
}

func (u taskUI) apply(t *chat.Task) {
	t.PendingMultiple, t.PendingAllowOther, t.PendingFields, t.Input, t.SwitchedFrom = u.Multiple, u.AllowOther, u.Fields, u.Input, u.SwitchedFrom
	t.Plan, t.Reflecting, t.Reflections, t.Decision = u.Plan, u.Reflecting, u.Reflections, u.Decision
	if u.Grants != nil {
		t.NetworkAllowed, t.ApprovedTools = u.Grants.Network, u.Grants.Tools
	}
}

func tasks(ctx context.Context, q queryer, where string, args ...any) ([]chat.Task, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+taskCols+` FROM tasks `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("query tasks: %w", err)
	}
	defer rows.Close()
	out := []chat.Task{}
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("scan task: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *Store) activeTasks(ctx context.Context) ([]chat.Task, error) {
	return tasks(ctx, s.db, `WHERE `+activeTask)
}

// ActiveTasks returns every task that has not ended, e.g. after a crash.
func (s *Store) ActiveTasks(ctx context.Context) ([]chat.Task, error) {
	return s.activeTasks(ctx)
}

// StartTask stores a new task and the user message that started it in one
// transaction. An untitled conversation takes its title from the prompt.
func (s *Store) StartTask(ctx context.Context, t chat.Task, prompt chat.Message) (chat.Message, error) {
	if err := chat.CheckMessage(prompt.Content); err != nil {
		return prompt, err
	}
	return s.startTask(ctx, t, prompt, nil)
}

// startTask stores the task and its prompt (none when prompt.ID is ""),
// after branch, when set, has chosen where on the tree they go.
func (s *Store) startTask(ctx context.Context, t chat.Task, prompt chat.Message, branch func(*sql.Tx) error) (chat.Message, error) {
	if err := checkNumbers(t); err != nil {
		return prompt, err
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		c, err := getConversation(ctx, tx, t.ConversationID)
		if err != nil {
			return err
		}
		active, err := tasks(ctx, tx, `WHERE conversation_id = ? AND `+activeTask, t.ConversationID)
		if err != nil {
			return err
		}
		if len(active) > 0 {
			return chat.Errorf(chat.CodeConflict,
				"this conversation already has a task in progress (%s); stop it or wait for it to finish", active[0].Status)
		}
		if err := reopen(ctx, tx, c); err != nil {
			return err
		}
		if branch != nil {
			if err := branch(tx); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO tasks (`+taskCols+`) VALUES (`+placeholders(strings.Count(taskCols, ",")+1)+`)`,
			taskArgs(t)...); err != nil {
			return fmt.Errorf("insert task: %w", err)
		}
		if !c.TitleSet && c.Title == "" {
			title := titleFrom(t.OriginalPrompt)
			if title == "" {
				// A proactive agent's conversation is named after it.
				d, err := agentByID(ctx, tx, t.AgentID)
				if err != nil {
					return err
				}
				title = d.Name
			}
			if _, err := tx.ExecContext(ctx, `UPDATE conversations SET title = ? WHERE id = ?`,
				title, c.ID); err != nil {
				return fmt.Errorf("title conversation: %w", err)
			}
		}
		if prompt.ID == "" {
			return touch(ctx, tx, c.ID, t.StartedAt) // a proactive start: no message
		}
		prompt, err = insertMessage(ctx, tx, prompt)
		return err
	})
	return prompt, err
}

// GetTask returns one task or a CodeNotFound error.
func (s *Store) GetTask(ctx context.Context, id string) (chat.Task, error) {
	t, err := scanTask(s.db.QueryRowContext(ctx, `SELECT `+taskCols+` FROM tasks WHERE id = ?`, id))
	if isNoRows(err) {
		return t, notFound("task", id)
	}
	if err != nil {
		return t, fmt.Errorf("get task: %w", err)
	}
	return t, nil
}

// UpdateTask stores the task's current state. t.Rev must be one more than
// the stored revision: a change made from a stale copy is refused.
func (s *Store) UpdateTask(ctx context.Context, t chat.Task) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return updateTask(ctx, tx, t) })
}

func updateTask(ctx context.Context, q queryer, t chat.Task) error {
	if err := checkNumbers(t); err != nil {
		return err
	}
	args := taskArgs(t)
	res, err := q.ExecContext(ctx, `UPDATE tasks SET
		mode = ?, status = ?, original_prompt = ?, step_count = ?, started_at = ?, ended_at = ?,
		pending_question = ?, pending_choices = ?, error_message = ?, current_tool = ?,
		prompt_tokens = ?, completion_tokens = ?, total_tokens = ?, model = ?, summary = ?,
		pending_approval = ?, pause_reason = ?, limits = ?, cost_usd = ?, active_ms = ?,
		current_call_id = ?, rev = ?, context_tokens = ?, context_limit = ?, agent_id = ?, ui = ?,
		cache_read_tokens = ?, cache_write_tokens = ?
		WHERE id = ? AND conversation_id = ? AND rev = ?`, append(args[2:], args[0], args[1], t.Rev-1)...)
	if err != nil {
		// The only unique index an update can break is tasks_one_active.
		if isUniqueViolation(err) {
			return chat.Wrap(chat.CodeConflict, err, "this conversation already has a task in progress; stop it or wait for it to finish")
		}
		return fmt.Errorf("update task: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		var stored int64
		err := q.QueryRowContext(ctx, `SELECT rev FROM tasks WHERE id = ?`, t.ID).Scan(&stored)
		if isNoRows(err) {
			return notFound("task", t.ID)
		}
		return chat.Errorf(chat.CodeConflict, "task %s changed meanwhile (stored revision %d, this change expects %d)", t.ID, stored, t.Rev-1)
	}
	return nil
}

// Record stores new messages and the task's state in one transaction and
// returns the stored messages.
func (s *Store) Record(ctx context.Context, t chat.Task, msgs []chat.Message) ([]chat.Message, error) {
	out := make([]chat.Message, 0, len(msgs))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		for _, m := range msgs {
			stored, err := insertMessage(ctx, tx, m)
			if err != nil {
				return err
			}
			out = append(out, stored)
		}
		return updateTask(ctx, tx, t)
	})
	return out, err
}

// FinishTask stores the task's final state and the messages that close it in
// one transaction. It returns what it changed: the new messages, any
// message still queued for the task (moved to its end, not delivered), and
// any message of the task still marked streaming, now finished, without
// its text (see chat.StreamEnd).
func (s *Store) FinishTask(ctx context.Context, t chat.Task, msgs []chat.Message) (chat.Finished, error) {
	var out chat.Finished
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		out = chat.Finished{Messages: make([]chat.Message, 0, len(msgs))}
		if err := updateTask(ctx, tx, t); err != nil {
			return err
		}
		for _, m := range msgs {
			stored, err := insertMessage(ctx, tx, m)
			if err != nil {
				return err
			}
			out.Messages = append(out.Messages, stored)
		}
		// A message still marked streaming belongs to a stream that ended
		// with the task; it is finished with the text that was stored.
		var err error
		out.Ended, err = finishStreams(ctx, tx, t.ID, t.Status == chat.StatusInterrupted)
		if err != nil {
			return err
		}
		// Messages still queued for a task that ended stay, after its
		// end, as the person's, marked not delivered; an interrupted
		// task keeps its queue for when it resumes.
		if t.Status != chat.StatusInterrupted {
			left, err := moveQueued(ctx, tx, t.ID, chat.DeliveryNotDelivered)
			if err != nil {
				return err
			}
			out.Messages = append(out.Messages, left...)
		}
		return touch(ctx, tx, t.ConversationID, time.Now())
	})
	return out, err
}

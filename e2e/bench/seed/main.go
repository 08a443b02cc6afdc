// Command seed fills an Errand data directory with a large, realistic
// history for the benchmarks: by default 10,000 conversations holding
// 1,000,000 messages, one of which (the most recently active, so the app
// opens it at start) holds 10,000.
//
// The schema comes from the real store package (store.Open runs the
// migrations); the rows are inserted in large transactions with prepared
// statements, as the store itself would write them, so that a million
// messages take seconds rather than minutes. Every conversation is a
// sequence of finished tasks with valid transcripts: the prompt, then per
// step an assistant message with a send_update call and its result, and a
// last step that calls task_complete.
//
// Usage:
//
//	go run ./e2e/bench/seed -dir /tmp/errand-big [-convs 10000] [-msgs 1000000] [-big 10000] [-fork]
//
// With -fork, the largest conversation's first message (ForkFirst) has a
// second version (ForkOther, as if edited and resent) continued by as many
// messages again, off the branch and ending with ForkLast: switching
// between the two versions changes every message of the conversation.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", "", "the data `directory` to create (must not hold a database yet)")
	convs := flag.Int("convs", 10000, "conversations")
	msgs := flag.Int("msgs", 1000000, "messages in all")
	big := flag.Int("big", 10000, "messages in the largest conversation (the newest)")
	seed := flag.Int64("seed", 1, "random seed")
	fork := flag.Bool("fork", false, "give the largest conversation's first message a second version with a branch as long")
	flag.Parse()
	if *dir == "" {
		return fmt.Errorf("-dir is required")
	}
	if *convs < 1 || *big < 3 || *msgs < *big+(*convs-1)*3 {
		return fmt.Errorf("need convs ≥ 1, big ≥ 3 and at least 3 messages per other conversation")
	}
	path := filepath.Join(*dir, store.FileName)
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists; seed a fresh directory", path)
	}
	ctx := context.Background()
	t0 := time.Now()
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	g := &gen{rnd: rand.New(rand.NewSource(*seed)), db: st.DB()}
	if err := g.begin(ctx); err != nil {
		return err
	}

	// Message counts: the big one, then the rest spread evenly with some
	// variation, adding up exactly to msgs.
	sizes := make([]int, *convs)
	sizes[0] = *big
	rest := *msgs - *big
	for i := 1; i < *convs; i++ {
		left := *convs - i
		avg := rest / left
		n := avg
		if left > 1 {
			n = avg/2 + g.rnd.Intn(avg+1) // avg/2 … 1.5·avg
			if max := rest - 3*(left-1); n > max {
				n = max
			}
		}
		if n < 3 {
			n = 3
		}
		sizes[i] = n
		rest -= n
	}

	now := time.Now().UTC().Truncate(time.Millisecond)
	for i, n := range sizes {
		// Conversation 0 is the newest; the others go back over a year.
		last := now.Add(-time.Duration(i) * 53 * time.Minute)
		sentinel := ""
		g.firstText = ""
		if i == 0 {
			sentinel = LastMessage
			if *fork {
				g.firstText = ForkFirst
			}
		}
		if err := g.conversation(ctx, last, n, sentinel); err != nil {
			return err
		}
		if i == 0 && *fork {
			if err := g.fork(ctx, last, n); err != nil {
				return err
			}
		}
	}
	if err := g.commit(); err != nil {
		return err
	}
	if _, err := st.DB().ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return err
	}
	fi, _ := os.Stat(path)
	fmt.Printf("seeded %s: %d conversations, %d messages, %d tasks, %.0f MB in %.1f s\n",
		path, *convs, g.messages, g.tasks, float64(fi.Size())/1e6, time.Since(t0).Seconds())
	return nil
}

// gen writes rows in transactions of about batch rows.
type gen struct {
	rnd *rand.Rand
	db  *sql.DB

	tx               *sql.Tx
	insConv, insTask *sql.Stmt
	insMsg           *sql.Stmt
	rows             int
	messages, tasks  int

	// The conversation being written: its id, the message the next one
	// continues (nil for none) and, when set, the text of its first message.
	conv      string
	parent    any
	firstText string
}

const batch = 20000

func (g *gen) begin(ctx context.Context) error {
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	g.tx = tx
	if g.insConv, err = tx.PrepareContext(ctx, `INSERT INTO conversations
		(id, title, title_set, mode, created_at, updated_at) VALUES (?, ?, 0, 'agent', ?, ?)`); err != nil {
		return err
	}
	if g.insTask, err = tx.PrepareContext(ctx, `INSERT INTO tasks (id, conversation_id, mode, status,
		original_prompt, step_count, started_at, ended_at, prompt_tokens, completion_tokens, total_tokens,
		model, summary) VALUES (?, ?, ?, 'completed', ?, ?, ?, ?, ?, ?, ?, 'gpt-4o-mini', ?)`); err != nil {
		return err
	}
	g.insMsg, err = tx.PrepareContext(ctx, `INSERT INTO messages (id, conversation_id, task_id, role,
		content, tool_calls, tool_call_id, tool_name, is_error, step, streaming, rev, created_at, parent_id, run)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, 0, 1, ?, ?, ?)`)
	return err
}

func (g *gen) commit() error { return g.tx.Commit() }

// maybeCommit starts a new transaction every batch rows.
func (g *gen) maybeCommit(ctx context.Context) error {
	g.rows++
	if g.rows%batch != 0 {
		return nil
	}
	if err := g.commit(); err != nil {
		return err
	}
	return g.begin(ctx)
}

var vocabulary = strings.Fields(`the a of to and in for on with that this it is was be as by
	from at or an are have has not but can will would should could file files report plan draft email
	invoice customer meeting notes summary budget list table chart data results sources check checked
	found update updated wrote write read reading review reviewed changes change next step steps done
	working task user question answer price prices flight hotel booking dates week month quarter team
	project deadline schedule calendar folder document spreadsheet numbers totals compare compared
	options option best cheaper faster safer first second third finally also then now still already`)

// sentence is n random words with a capital and a full stop.
func (g *gen) sentence(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[g.rnd.Intn(len(vocabulary))]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// text is a paragraph of about words words.
func (g *gen) text(words int) string {
	var parts []string
	for words > 0 {
		n := 6 + g.rnd.Intn(10)
		if n > words {
			n = words
		}
		parts = append(parts, g.sentence(n))
		words -= n
	}
	return strings.Join(parts, " ")
}

func (g *gen) message(ctx context.Context, conv, task string, role chat.Role, content string,
	calls []chat.ToolCall, callID, tool string, step int, at time.Time) error {
	var encoded string
	if len(calls) > 0 {
		b, _ := json.Marshal(calls)
		encoded = string(b)
	}
	var taskID any
	if task != "" {
		taskID = task
	}
	return g.insert(ctx, conv, taskID, role, content, encoded, callID, tool, step, at, 0)
}

// insert writes a message continuing g.parent in the run run (0, the
// current branch, or 1, the fork's other version off it), and makes it
// the next one's parent.
func (g *gen) insert(ctx context.Context, conv string, taskID any, role chat.Role, content, calls, callID, tool string,
	step int, at time.Time, run int) error {
	id := uuid.NewString()
	if _, err := g.insMsg.ExecContext(ctx, id, conv, taskID, string(role), content, calls,
		callID, tool, step, at.UnixMilli(), g.parent, run); err != nil {
		return fmt.Errorf("insert message: %w", err)
	}
	g.parent = id
	g.messages++
	return g.maybeCommit(ctx)
}

// LastMessage ends the largest conversation: the benchmarks wait for it to
// be painted (whether the window renders every row or only those in view).
const LastMessage = "This is the last message of the benchmark history."

// With -fork: the largest conversation's first message, its other
// version, and the last message of the branch that version starts (the
// first two with a word of their own, for search). Every message of that
// branch says ForkMark, so the window shows which branch it shows.
const (
	ForkFirst = "Zephyrfork: the first message of the benchmark history."
	ForkOther = "Quillfork: the first message of the benchmark history, in the " + ForkMark + "."
	ForkLast  = "This is the last message of the " + ForkMark + "."
	ForkMark  = "edited branch"
)

// fork gives the conversation just written (n messages, the last at last)
// a second version of its first message, continued by n-1 chat messages
// off the branch, as a switch would have left them (a run of their own).
func (g *gen) fork(ctx context.Context, last time.Time, n int) error {
	g.parent = nil
	at := last.Add(time.Second)
	for i := 0; i < n; i++ {
		role, text := chat.RoleUser, g.text(10+g.rnd.Intn(30))
		if i%2 == 1 {
			role, text = chat.RoleAssistant, g.text(30+g.rnd.Intn(60))
		}
		text += " In the " + ForkMark + "."
		switch i {
		case 0:
			text = ForkOther
		case n - 1:
			text = ForkLast
		}
		if err := g.insert(ctx, g.conv, nil, role, text, "", "", "", 0, at.Add(time.Duration(i)*time.Millisecond), 1); err != nil {
			return err
		}
	}
	if _, err := g.tx.ExecContext(ctx, `UPDATE conversations SET runs = 1 WHERE id = ?`, g.conv); err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	return nil
}

// conversation writes one conversation of n messages whose last activity
// is at last. A sentinel, if given, is the text of its last message (the
// reply of a final chat task).
func (g *gen) conversation(ctx context.Context, last time.Time, n int, sentinel string) error {
	id := uuid.NewString()
	g.conv, g.parent = id, nil
	// Tasks of 21 messages (10 steps), then what is left; with a sentinel,
	// a chat task of 2 at the end.
	var tasks []int
	rem := n
	if sentinel != "" {
		rem -= 2
	}
	for rem > 0 {
		switch {
		case rem == 21 || rem >= 24:
			tasks = append(tasks, 21)
		case rem%2 == 1:
			tasks = append(tasks, rem) // 1 (a notice) or 3, 5, … (an agent task)
		default:
			tasks = append(tasks, 2) // a chat reply: prompt and answer
		}
		rem -= tasks[len(tasks)-1]
	}
	if sentinel != "" {
		tasks = append(tasks, 2)
	}
	// Messages 20 s apart, ending at last.
	at := last.Add(-time.Duration(n) * 20 * time.Second)
	tick := func() time.Time { at = at.Add(20 * time.Second); return at }
	title := g.sentence(3 + g.rnd.Intn(5))
	if _, err := g.insConv.ExecContext(ctx, id, strings.TrimSuffix(title, "."), at.UnixMilli(), last.UnixMilli()); err != nil {
		return fmt.Errorf("insert conversation: %w", err)
	}
	for ti, size := range tasks {
		if size == 1 {
			if err := g.message(ctx, id, "", chat.RoleSystem, "Stopped by user", nil, "", "", 0, tick()); err != nil {
				return err
			}
			continue
		}
		taskID := uuid.NewString()
		prompt := g.text(10 + g.rnd.Intn(30))
		if ti == 0 && g.firstText != "" {
			prompt = g.firstText
		}
		started := at.Add(20 * time.Second)
		mode, steps, summary := chat.ModeAgent, (size-1)/2, g.sentence(12)
		if size == 2 {
			mode, steps, summary = chat.ModeChat, 1, ""
		}
		ended := started.Add(time.Duration(size-1) * 20 * time.Second)
		pt, ct := int64(500*steps), int64(120*steps)
		if _, err := g.insTask.ExecContext(ctx, taskID, id, string(mode), prompt, steps, started.UnixMilli(),
			ended.UnixMilli(), pt, ct, pt+ct, summary); err != nil {
			return fmt.Errorf("insert task: %w", err)
		}
		g.tasks++
		if err := g.message(ctx, id, taskID, chat.RoleUser, prompt, nil, "", "", 0, tick()); err != nil {
			return err
		}
		if size == 2 {
			reply := g.text(30 + g.rnd.Intn(60))
			if sentinel != "" && ti == len(tasks)-1 {
				reply = sentinel
			}
			if err := g.message(ctx, id, taskID, chat.RoleAssistant, reply, nil, "", "", 1, tick()); err != nil {
				return err
			}
		}
		for s := 1; size > 2 && s <= steps; s++ {
			callID := "call_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]
			name, args, result := agentToolSendUpdate, map[string]string{"message": g.sentence(8)}, "The update was shown to the user."
			if s == steps {
				name, args, result = agentToolTaskComplete, map[string]string{"summary": summary}, "The task is marked complete."
			}
			a, _ := json.Marshal(args)
			calls := []chat.ToolCall{{ID: callID, Name: name, Arguments: string(a)}}
			if err := g.message(ctx, id, taskID, chat.RoleAssistant, g.text(20+g.rnd.Intn(60)), calls, "", "", s, tick()); err != nil {
				return err
			}
			if err := g.message(ctx, id, taskID, chat.RoleTool, result, nil, callID, name, s, tick()); err != nil {
				return err
			}
		}
	}
	// The conversation's messages are one run (0), its current branch.
	if _, err := g.tx.ExecContext(ctx, `INSERT INTO branch_runs (conversation_id, run, first, upto)
		SELECT ?1, 0, min(seq), 9223372036854775807 FROM messages WHERE conversation_id = ?1 AND run = 0`, id); err != nil {
		return fmt.Errorf("insert the branch: %w", err)
	}
	return nil
}

// The agent's control tools, as stored in its messages (agent.ToolSendUpdate
// and agent.ToolTaskComplete; not imported, to keep this tool independent of
// the runner's internals).
const (
	agentToolSendUpdate   = "send_update"
	agentToolTaskComplete = "task_complete"
)

package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The crash test runs tasks in a child process — this test binary, started
// again with crashChildEnv set — which dies by SIGKILL at each kind of
// moment once: while a reply streams, while the model thinks, while a tool
// runs, while a question or an approval waits, as a message is stored. It
// dies as it publishes the event of that moment, its other tasks at
// whatever they are doing (in the middle of a write too). After every kill
// the database must pass integrity_check, hold every message the child had
// published, and come back, through Recover, with every task in a truthful
// state and every conversation's transcript one the real API accepts.

const (
	crashChildEnv = "ERRAND_CRASH_CHILD_DB"
	crashAtEnv    = "ERRAND_CRASH_AT"
)

// crashPoints are the moments the child dies at, in this order: a task
// status, or a streamed delta or a stored message. The child dies at the
// crashNth event of the kind after its first published message (what
// Recover publishes before it is work left by the last kill), when its
// three conversations are all at work. Each kill leaves work for the next
// child's Recover.
var crashPoints = []string{"delta", string(chat.StatusThinking), string(chat.StatusToolExecuting),
	string(chat.StatusWaitingUser), string(chat.StatusWaitingApproval), string(chat.StatusRunning), "stored"}

const crashNth = 3

func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(path, os.Getenv(crashAtEnv))
		return
	}
	code := m.Run()
	removeSchemaDB()
	os.Exit(code)
}

func TestCrashAtEveryKindOfMomentLosesNothing(t *testing.T) {
	t.Parallel()
	dbPath := newDB(t)
	seen := map[chat.TaskStatus]int{} // task states found right after a kill
	for _, at := range crashPoints {
		published := runChildAndKill(t, dbPath, at)
		found := checkAfterCrash(t, dbPath, published)
		if st := chat.TaskStatus(at); at != "delta" && at != "stored" {
			assert.Positive(t, found[st], "the task the child died in is found %s", st)
		}
		for st, n := range found {
			seen[st] += n
		}
	}
	t.Logf("%d kills; task states found after them: %v", len(crashPoints), seen)
	assert.Positive(t, seen[chat.StatusThinking]+seen[chat.StatusRunning]+seen[chat.StatusToolExecuting],
		"some kills hit a task at work")
}

// runChildAndKill starts the child, which dies at the moment at, and
// returns what it had published: message id → highest revision.
func runChildAndKill(t *testing.T, dbPath, at string) map[string]int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dbPath, crashAtEnv+"="+at)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	published := map[string]int{}
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 3 && f[0] == "M" {
				rev, _ := strconv.Atoi(f[2])
				published[f[1]] = max(published[f[1]], rev)
			}
		}
	}()
	select {
	case <-read:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		<-read
		t.Fatalf("the child did not reach %s in two minutes", at)
	}
	_ = cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	require.True(t, ws.Signaled() && ws.Signal() == syscall.SIGKILL, "the child died by SIGKILL at %s (%v)", at, cmd.ProcessState)
	require.NotEmpty(t, published, "the child published before it died")
	return published
}

// checkAfterCrash checks the database the child left and returns the task
// states it found (left from an earlier kill: not counted).
func checkAfterCrash(t *testing.T, dbPath string, published map[string]int) map[chat.TaskStatus]int {
	t.Helper()
	seen := map[chat.TaskStatus]int{}
	ctx := context.Background()
	st, err := store.Open(ctx, dbPath)
	require.NoError(t, err)
	defer st.Close()

	var integrity string
	require.NoError(t, st.DB().QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&integrity))
	require.Equal(t, "ok", integrity)

	revs := map[string]int{}
	// A message cut off mid-stream has a revision per streamed chunk.
	rows, err := st.DB().QueryContext(ctx, `SELECT id, rev + coalesce((SELECT max(seq)
		FROM message_chunks c WHERE c.message_id = messages.id), 0) FROM messages`)
	require.NoError(t, err)
	for rows.Next() {
		var id string
		var rev int
		require.NoError(t, rows.Scan(&id, &rev))
		revs[id] = rev
	}
	require.NoError(t, rows.Close())
	for id, rev := range published {
		require.GreaterOrEqual(t, revs[id], rev, "message %s was published at rev %d but is not stored", id, rev)
	}

	active, err := st.ActiveTasks(ctx)
	require.NoError(t, err)
	before := map[string]chat.Task{}
	for _, task := range active {
		if task.Status != chat.StatusInterrupted { // not left from an earlier kill
			seen[task.Status]++
		}
		before[task.ID] = task
	}

	r := New(Options{Store: st, Provider: idleProvider{}, Events: nopEvents{}, Tools: tools.Builtin(), Workspace: childWorkspace(dbPath)})
	_, _, err = r.Recover(ctx)
	require.NoError(t, err)
	convs, err := st.ListConversations(ctx)
	require.NoError(t, err)
	for _, c := range convs {
		view, err := st.LoadConversation(ctx, c.ID)
		require.NoError(t, err)
		for _, task := range view.Tasks {
			switch task.Status {
			case chat.StatusCompleted, chat.StatusCancelled, chat.StatusError, chat.StatusInterrupted,
				chat.StatusWaitingUser, chat.StatusWaitingApproval, chat.StatusPaused:
			default:
				msgs, _ := st.TaskMessages(ctx, task.ID)
				var lines []string
				for _, m := range msgs {
					lines = append(lines, fmt.Sprintf("%d %s %q calls=%v callid=%s", m.Seq, m.Role, truncate(m.Content, 40), m.ToolCalls, m.ToolCallID))
				}
				t.Fatalf("after recovery task %s is %s (before: %+v)\n%s", task.ID, task.Status, before[task.ID], strings.Join(lines, "\n"))
			}
			if task.Status == chat.StatusWaitingUser {
				require.NotEmpty(t, task.PendingQuestion)
			}
			if task.Status == chat.StatusWaitingApproval {
				require.NotNil(t, task.PendingApproval)
			}
		}
		for _, m := range view.Messages {
			require.False(t, m.Streaming && (view.ActiveTask == nil || m.TaskID != view.ActiveTask.ID),
				"message %s still streaming after recovery", m.ID)
		}
		// Whatever the history holds, the next request is one the real API
		// accepts.
		require.NoError(t, compat.Validate(toCompat(buildContext(AgentSystemPrompt, view.Messages, true, nil), r.tools.Registry().Definitions())))
	}
	ctxShut, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	require.NoError(t, r.Shutdown(ctxShut))
	return seen
}

func toCompat(msgs []llm.Message, defs []llm.Tool) *compat.Request {
	req := &compat.Request{Model: "m", Stream: true}
	for _, m := range msgs {
		cm := compat.Message{Role: string(m.Role), ToolCallID: m.ToolCallID, Content: compat.Text(m.Content)}
		if m.Role == chat.RoleAssistant {
			cm = compat.Assistant(m.Content, m.ToolCalls)
		}
		req.Messages = append(req.Messages, cm)
	}
	for _, d := range defs {
		// As the server would see it: decoded JSON.
		var params map[string]any
		b, _ := json.Marshal(d.Parameters)
		_ = json.Unmarshal(b, &params)
		req.Tools = append(req.Tools, compat.Tool{Type: "function", Function: &compat.FunctionDef{Name: d.Name, Description: d.Description, Parameters: params}})
	}
	return req
}

type idleProvider struct{}

func (idleProvider) Model() string { return "idle" }
func (idleProvider) Stream(ctx context.Context, _ llm.Request, _ llm.Deltas) (llm.Response, error) {
	<-ctx.Done()
	return llm.Response{}, ctx.Err()
}

type nopEvents struct{}

func (nopEvents) TaskUpdated(chat.Task)                 {}
func (nopEvents) MessageStored(chat.Message)            {}
func (nopEvents) MessageDelta(Delta)                    {}
func (nopEvents) StreamEnded(chat.StreamEnd)            {}
func (nopEvents) ConversationUpdated(chat.Conversation) {}
func (nopEvents) ToolOutput(ToolOutput)                 {}
func (nopEvents) FactsChanged(string)                   {}

// crashChild is the process that gets killed: it keeps three conversations
// busy with tasks that stream, update, ask, write files and run commands,
// answering and approving after short random delays, until it dies at the
// moment at.
func crashChild(dbPath, at string) {
	ctx := context.Background()
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(2)
	}
	srv := compat.NewServer(childScript)
	url, _ := srv.Start()
	ev := &childEvents{at: at}
	r := New(Options{
		Store: st, Events: ev, Tools: tools.Builtin(), Workspace: childWorkspace(dbPath),
		Provider: openai.New(openai.Config{BaseURL: url, APIKey: "k", Model: "m", MaxRetries: -1}),
	})
	ev.r = r
	if _, _, err := r.Recover(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "child recover:", err)
		os.Exit(2)
	}
	// Let a resumed wait be answered too.
	for _, t := range mustActive(st) {
		ev.play(t)
	}
	var convs []string
	for i := 0; i < 3; i++ {
		now := time.Now()
		c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateConversation(ctx, c); err == nil {
			convs = append(convs, c.ID)
		}
	}
	for {
		for _, c := range convs {
			if _, busy := r.ActiveTask(c); !busy {
				_, _ = r.StartTask(ctx, c, "Do the crash-test errand", chat.ModeAgent)
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func childWorkspace(dbPath string) func(context.Context, string) (*tools.Workspace, error) {
	work := filepath.Join(filepath.Dir(dbPath), "work")
	return func(_ context.Context, id string) (*tools.Workspace, error) {
		return tools.OpenWorkspace(filepath.Join(work, id))
	}
}

func mustActive(st *store.Store) []chat.Task {
	ts, _ := st.ActiveTasks(context.Background())
	return ts
}

// childScript walks each task through the agent's abilities, by how many
// replies the task has had so far.
func childScript(req *compat.Request) compat.Reply {
	step := 0
	for i := len(req.Messages) - 1; i >= 0 && !(req.Messages[i].Role == "user" && !strings.HasPrefix(req.Messages[i].Text(), "(automatic)")); i-- {
		if req.Messages[i].Role == "assistant" {
			step++
		}
	}
	words := strings.Repeat("streaming words for the crash test ", 6)
	delay := time.Duration(1+rand.IntN(3)) * time.Millisecond
	switch step {
	case 0:
		return compat.Reply{Text: words, ChunkDelay: delay, ToolCalls: []chat.ToolCall{call(ToolSendUpdate, `{"message":"started"}`)}}
	case 1:
		return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Go on?","choices":["yes","no"]}`)}}
	case 2:
		return compat.Reply{Text: "Writing.", ToolCalls: []chat.ToolCall{call("write_file", `{"path":"out.txt","content":"crash test"}`)}}
	case 3:
		return compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"sleep 0.05; echo ran >> log.txt"}`)}}
	case 4:
		return compat.Reply{Text: words, ChunkDelay: delay}
	default:
		return compat.Reply{Text: "Done.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"crash-test errand done"}`)}}
	}
}

// childEvents publishes stored messages on stdout — the parent's record of
// what the frontend would have been shown — plays the person, and kills
// the process at the crashNth event of the kind at.
type childEvents struct {
	r         *Runner
	at        string
	mu        sync.Mutex
	published bool // a message, so the child is at work
	n         int  // events of the kind at since
}

// reached counts an event of the kind what and, at the crashNth of the
// kind at, kills the process with what it published so far written out.
// Called with e.mu held.
func (e *childEvents) reached(what string) {
	if what != e.at || !e.published {
		return
	}
	if e.n++; e.n == crashNth {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

func (e *childEvents) MessageStored(m chat.Message) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(os.Stdout, "M %s %d\n", m.ID, m.Rev)
	e.published = true
	e.reached("stored")
}

func (e *childEvents) StreamEnded(end chat.StreamEnd) { e.MessageStored(end.Message) }

func (e *childEvents) MessageDelta(d Delta) {
	e.mu.Lock()
	defer e.mu.Unlock()
	fmt.Fprintf(os.Stdout, "M %s %d\n", d.MessageID, d.Rev)
	e.published = true
	e.reached("delta")
}

func (e *childEvents) ConversationUpdated(chat.Conversation) {}
func (e *childEvents) ToolOutput(ToolOutput)                 {}
func (e *childEvents) FactsChanged(string)                   {}

func (e *childEvents) TaskUpdated(t chat.Task) {
	e.mu.Lock()
	e.reached(string(t.Status))
	e.mu.Unlock()
	e.play(t)
}

// play answers, approves and continues as the person would, after a short
// random delay.
func (e *childEvents) play(t chat.Task) {
	r := e.r
	if r == nil {
		return
	}
	switch t.Status {
	case chat.StatusWaitingUser:
		go func() {
			time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
			_ = r.Respond(context.Background(), t.ID, "yes")
		}()
	case chat.StatusWaitingApproval:
		if a := t.PendingApproval; a != nil {
			go func() {
				time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
				_ = r.Approve(context.Background(), t.ID, a.CallID, false)
			}()
		}
	case chat.StatusPaused:
		go func() { _ = r.Continue(context.Background(), t.ID) }()
	}
}

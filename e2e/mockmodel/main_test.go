package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

var tools = []compat.Tool{
	fn("send_update", "message"),
	fn("ask_user", "question"),
	fn("task_complete", "summary"),
}

func fn(name, arg string) compat.Tool {
	return compat.Tool{Type: "function", Function: &compat.FunctionDef{Name: name, Parameters: map[string]any{
		"type": "object", "properties": map[string]any{arg: map[string]any{"type": "string"}}, "required": []any{arg},
	}}}
}

// safeBuffer is a bytes.Buffer for concurrent writers.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start runs the server in-process and returns its URL and its stderr.
func start(t *testing.T, args ...string) (string, *safeBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	stderr := &safeBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, w, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(time.Minute):
			t.Error("run did not return after its context ended")
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	require.True(t, ok, "first line %q", line)
	require.Regexp(t, `^http://127\.0\.0\.1:\d+$`, url)
	go func() { _, _ = io.Copy(io.Discard, out) }()
	return url, stderr
}

// task is a transcript sent turn by turn, as the agent does.
type task struct {
	t    *testing.T
	url  string
	msgs []compat.Message
}

func newTask(t *testing.T, url, prompt string) *task {
	return &task{t: t, url: url, msgs: []compat.Message{
		{Role: "system", Content: compat.Text("You are an agent.")},
		{Role: "user", Content: compat.Text(prompt)},
	}}
}

func (k *task) turn(withTools bool) compat.Result {
	k.t.Helper()
	req := &compat.Request{Model: "mock-model", Messages: k.msgs, Stream: true}
	if withTools {
		req.Tools = tools
	}
	res, err := compat.Do(context.Background(), k.url, "", req)
	require.NoError(k.t, err)
	require.True(k.t, res.Done)
	k.msgs = append(k.msgs, res.Message())
	return res
}

// result answers the last reply's tool call.
func (k *task) result(content string) {
	last := k.msgs[len(k.msgs)-1]
	require.Len(k.t, last.ToolCalls, 1)
	k.msgs = append(k.msgs, compat.ToolResult(last.ToolCalls[0].ID, content))
}

func assertCall(t *testing.T, res compat.Result, name, args string) {
	t.Helper()
	require.Len(t, res.ToolCalls, 1)
	assert.Equal(t, name, res.ToolCalls[0].Name)
	assert.JSONEq(t, args, res.ToolCalls[0].Arguments)
}

func TestScripts(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log")

	t.Run("complete", func(t *testing.T) {
		k := newTask(t, url, "Please finish [complete]")
		res := k.turn(true)
		assert.Equal(t, "Working on it.", res.Text)
		assertCall(t, res, "send_update", `{"message":"Halfway there"}`)
		k.result("ok")
		res = k.turn(true)
		assert.Equal(t, "All done.", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Finished the e2e task"}`)
	})

	t.Run("ask", func(t *testing.T) {
		k := newTask(t, url, "[ask] pick one")
		res := k.turn(true)
		assert.Empty(t, res.Text)
		assertCall(t, res, "ask_user", `{"question":"Which color?","choices":["Red","Blue"]}`)
		k.result("Blue")
		res = k.turn(true)
		assert.Equal(t, "You chose Blue.", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Color chosen: Blue"}`)
	})

	t.Run("chat marker", func(t *testing.T) {
		res := newTask(t, url, "[chat] hello there").turn(true)
		assert.Equal(t, "Echo: [chat] hello there", res.Text)
		assert.Empty(t, res.ToolCalls)
	})

	t.Run("no tools", func(t *testing.T) {
		res := newTask(t, url, "[complete] but as chat").turn(false)
		assert.Equal(t, "Echo: [complete] but as chat", res.Text)
		assert.Empty(t, res.ToolCalls)
	})

	t.Run("call", func(t *testing.T) {
		k := newTask(t, url, `[call] task_complete {"summary":"called by name"}`)
		res := k.turn(true)
		assertCall(t, res, "task_complete", `{"summary":"called by name"}`)
		k.result("no such tool")
		res = k.turn(true)
		assert.Equal(t, "Result: no such tool", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Called task_complete"}`)
	})

	t.Run("default", func(t *testing.T) {
		res := newTask(t, url, "tidy up").turn(true)
		assert.Equal(t, "Done: tidy up", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"done"}`)
	})

	t.Run("automatic nudge is not the prompt", func(t *testing.T) {
		k := newTask(t, url, "[chat] hi")
		k.turn(true)
		k.msgs = append(k.msgs, compat.Message{Role: "user", Content: compat.Text("(automatic) Call task_complete when you are done.")})
		res := k.turn(true)
		assert.Equal(t, "Echo: [chat] hi", res.Text)
	})

	t.Run("a new prompt starts a new script", func(t *testing.T) {
		k := newTask(t, url, "[ask] first")
		k.turn(true)
		k.result("Red")
		k.turn(true)
		k.result("Task complete.")
		k.msgs = append(k.msgs, compat.Message{Role: "user", Content: compat.Text("now [complete]")})
		res := k.turn(true)
		assertCall(t, res, "send_update", `{"message":"Halfway there"}`)
	})

	assert.Empty(t, stderr.String(), "no request was refused")
}

func TestSlowStreamsAtReadablePace(t *testing.T) {
	t.Parallel()
	r := script(&compat.Request{Model: "m", Tools: tools, Messages: []compat.Message{{Role: "user", Content: compat.Text("[slow]")}}})
	words := compat.Words(r.Text)
	require.Len(t, words, 400)
	assert.Equal(t, "word1", words[0])
	assert.Equal(t, " word400", words[399])
	assert.Equal(t, 50*time.Millisecond, r.ChunkDelay)
	require.Len(t, r.ToolCalls, 1)
	assert.Equal(t, "task_complete", r.ToolCalls[0].Name)

	// Over the wire: the first words arrive long before the stream ends.
	url, _ := start(t)
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"[slow]"}],"tools":[{"type":"function","function":{"name":"task_complete"}}]}`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	start := time.Now()
	sc := bufio.NewScanner(resp.Body)
	seen := 0
	for seen < 5 && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			seen++
		}
	}
	assert.Equal(t, 5, seen)
	// The whole stream takes 400 × 50 ms = 20 s: half of it is a bound only
	// a server that held the words back reaches, however busy the machine.
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestSlowCodeStreamsALineAChunk(t *testing.T) {
	t.Parallel()
	r := script(&compat.Request{Model: "m", Tools: tools, Messages: []compat.Message{{Role: "user", Content: compat.Text("[slow-code]")}}})
	assert.True(t, strings.HasPrefix(r.Text, "```go\n"), r.Text[:20])
	assert.True(t, strings.HasSuffix(r.Text, "\n}\n```"))
	words := compat.Words(r.Text)
	require.Len(t, words, 3+400+2, "the fence and func slow(){, a chunk a line, } and the fence")
	assert.Equal(t, "\n\tv001=append(v001,\"abcdefghijklmnopqrstuvwxyz0123456789\")", words[3])
	assert.Equal(t, "\n\tv400=append(v400,\"abcdefghijklmnopqrstuvwxyz0123456789\")", words[402])
	assert.Equal(t, 50*time.Millisecond, r.ChunkDelay)
	require.Len(t, r.ToolCalls, 1)
	assert.Equal(t, "task_complete", r.ToolCalls[0].Name)
}

func TestLogsHangUps(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log")
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"[slow]"}],"tools":[{"type":"function","function":{"name":"task_complete"}}]}`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for seen := 0; seen < 3 && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "data: ") {
			seen++
		}
	}
	assert.Empty(t, stderr.String(), "nothing is printed while the client is there")
	cancel()
	require.Eventually(t, func() bool {
		return strings.Contains(stderr.String(), "mockmodel: client went away before its reply was complete")
	}, time.Minute, 5*time.Millisecond, "the hang-up is logged")
}

func TestLogsRejections(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log")
	// A tool call without its result: the real API's 400.
	body := `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"ask_user","arguments":"{}"}}]},{"role":"user","content":"again"}]}`
	resp, err := http.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var eb compat.ErrorBody
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&eb))
	assert.Contains(t, eb.Error.Message, "did not have response messages: c1")
	assert.Contains(t, stderr.String(), "mockmodel: rejected POST /v1/chat/completions: 400 An assistant message with 'tool_calls'")

	quiet, quietErr := start(t)
	resp, err = http.Post(quiet+"/v1/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Empty(t, quietErr.String(), "without -log nothing is printed")
}

func TestModelsAndAPIKeyFlags(t *testing.T) {
	t.Parallel()
	get := func(url, key string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url+"/v1/models", nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body)
	}

	// By default: one model, no key needed (any key is accepted).
	open, _ := start(t)
	code, body := get(open, "")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `"id":"mock-model"`)
	code, _ = get(open, "whatever")
	assert.Equal(t, http.StatusOK, code)

	keyed, _ := start(t, "-models", "mock-model, mock-large", "-api-key", "sk-e2e-right")
	code, body = get(keyed, "sk-e2e-right")
	assert.Equal(t, http.StatusOK, code)
	var list compat.ModelList
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	var ids []string
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	assert.Equal(t, []string{"mock-model", "mock-large"}, ids)
	code, body = get(keyed, "sk-e2e-wrong")
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.NotContains(t, body, "sk-e2e-wrong", "the key is masked in the error")
	code, _ = get(keyed, "")
	assert.Equal(t, http.StatusUnauthorized, code, "a missing key is refused too")
	res, err := compat.Do(context.Background(), keyed, "sk-e2e-right", &compat.Request{Model: "mock-large", Stream: true,
		Messages: []compat.Message{{Role: "user", Content: compat.Text("ping")}}})
	require.NoError(t, err)
	assert.Equal(t, "Echo: ping", res.Text)

	var stderr bytes.Buffer
	assert.Error(t, run(context.Background(), []string{"-models", " , "}, io.Discard, &stderr))
}

func TestBadFlags(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	assert.Error(t, run(context.Background(), []string{"-nope"}, io.Discard, &stderr))
	assert.Error(t, run(context.Background(), []string{"extra"}, io.Discard, &stderr))
	assert.Error(t, run(context.Background(), []string{"-addr", "256.0.0.1:0"}, io.Discard, &stderr))
}

func TestPromptIndex(t *testing.T) {
	t.Parallel()
	msg := func(role, text string) compat.Message { return compat.Message{Role: role, Content: compat.Text(text)} }
	assert.Equal(t, -1, promptIndex(nil))
	assert.Equal(t, 1, promptIndex([]compat.Message{msg("system", "s"), msg("user", "a"), msg("assistant", "b"), msg("user", "(automatic) go on")}))
	assert.Equal(t, 0, promptIndex([]compat.Message{msg("user", "(automatic) only nudges")}))
}

// TestBinary builds the command and checks what a test harness relies on:
// the listening line on stdout and a clean exit on SIGTERM.
func TestBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds a binary and sends it SIGTERM")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go toolchain not on PATH")
	}
	bin := filepath.Join(t.TempDir(), "mockmodel")
	build := exec.Command(goBin, "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	url := strings.TrimPrefix(strings.TrimSpace(line), "listening ")

	res, err := compat.Do(context.Background(), url, "", &compat.Request{Model: "m", Stream: true, Messages: []compat.Message{{Role: "user", Content: compat.Text("ping")}}})
	require.NoError(t, err)
	assert.Equal(t, "Echo: ping", res.Text)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err, "exit status after SIGTERM")
	case <-time.After(time.Minute):
		t.Fatal("no exit after SIGTERM")
	}
}

func TestUntrustedAndDelayedScripts(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log")

	t.Run("xss", func(t *testing.T) {
		res := newTask(t, url, "[xss] render this").turn(true)
		assert.Contains(t, res.Text, `<img src=x onerror="window.__pwned=1">`)
		assert.Contains(t, res.Text, `<script>window.__pwned=2</script>`)
		assert.Contains(t, res.Text, `[javascript link](javascript:window.__pwned=3)`)
		require.Len(t, res.ToolCalls, 1)
		assert.Equal(t, "task_complete", res.ToolCalls[0].Name)
	})

	t.Run("markdown", func(t *testing.T) {
		res := newTask(t, url, "[markdown] plan").turn(true)
		assert.Contains(t, res.Text, "| City | Flights | Price |")
		assertCall(t, res, "task_complete", `{"summary":"Formatted the **plan**"}`)
	})

	t.Run("later", func(t *testing.T) {
		// Released first: [later] then asks at once (it waits only until then).
		resp, err := http.Post(url+"/mock/later", "", nil)
		require.NoError(t, err)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		k := newTask(t, url, "[later] pick one")
		res := k.turn(true)
		assertCall(t, res, "ask_user", `{"question":"Which color?","choices":["Red","Blue"]}`)
		k.result("Red")
		res = k.turn(true)
		assert.Equal(t, "You chose Red.", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Color chosen: Red"}`)
	})

	assert.Empty(t, stderr.String(), "no request was refused")
}

func TestListsTheRequestsItWasSent(t *testing.T) {
	t.Parallel()
	url, _ := start(t)
	read := func() []string {
		resp, err := http.Get(url + "/mock/requests")
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var bodies []string
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&bodies))
		return bodies
	}
	assert.Empty(t, read())
	newTask(t, url+"/v1", "remember the word marmalade").turn(true)
	bodies := read()
	require.Len(t, bodies, 1)
	assert.Contains(t, bodies[0], "remember the word marmalade")
	assert.Contains(t, bodies[0], `"task_complete"`, "the whole body, tools and all")
}

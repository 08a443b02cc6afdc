// Command mockmodel is a scripted OpenAI-compatible model server for
// end-to-end tests. It prints "listening http://HOST:PORT" once it accepts
// requests and serves until SIGINT or SIGTERM. It needs no API key unless
// -api-key names one: then every request must carry exactly that bearer
// token (a wrong or missing one gets a 401, as from the real API). GET
// /v1/models lists -models (default "mock-model"); chat requests may name
// any model. Point a client at the printed URL (with or without /v1).
//
// What it answers is chosen by a marker in the task's prompt, the most
// recent user message that is not an "(automatic)" nudge:
//
//	[complete]  "Working on it." + send_update, then "All done." + task_complete
//	[ask]       ask_user "Which color?" (Red/Blue), then "You chose X." + task_complete
//	[slow]      400 words at 50 ms a word (all at once after POST /mock/hurry), then task_complete
//	[slow-code] a fenced Go code block of 400 lines at 50 ms a line (all at once after POST
//	            /mock/hurry), then task_complete
//	[later]     like [ask], but thinks until POST /mock/later before it asks
//	[xss]       text and a summary full of HTML, script and javascript: links, then task_complete
//	[markdown]  a reply with a heading, lists, a table, code and a link, then task_complete
//	[table]     a table of seven columns of long words, wider than a bubble, then task_complete
//	[write]     write_file hello.txt "Hello from Errand" (needs approval), then "Result: <the tool's
//	            result>" + task_complete, so a denial's reason shows in the reply
//	[write-then-ask] write_file hello.txt, then ask_user "Shall I go on?" (Yes/No) and wait
//	[command]   run_command "ls -la && echo done" (needs approval), then "Result: <the tool's result>"
//	            + task_complete
//	[run] A ;; B  run_command A, then B (one a step, as many as given), then task_complete
//	[call] NAME {JSON}  the tool NAME with those arguments (any tool, an MCP server's say), then
//	            "Result: <the tool's result>" + task_complete
//	[loop]      send_update "Update N" at steps 1 to 3, then task_complete at step 4
//	[fail]      the first request for the prompt gets a 400 error; later ones "Recovered." + task_complete
//	a variation (its system message has "## Variation N of M") gets "Variation N of M from MODEL: PROMPT"
//	[stall]     the first two requests for the prompt get a stream's headers and then nothing, until
//	            the client goes away; later ones "Recovered." + task_complete
//	[think]     a few sentences of reasoning_content (80 ms a chunk: the step takes about 5 s, or
//	            no longer than until POST /mock/hurry) and
//	            send_update, then "The sum of the first ten odd numbers is **100**." (followed by
//	            " (Reasoning effort: E.)" when the request asked for effort E) + task_complete
//	[remember]  remember "favourite editor" = "helix" (global), then "Result: <the tool's result>" +
//	            task_complete
//	[mcp-echo]  everything__echo "hello from the MCP server" (an MCP server named everything), then
//	            "Result: <the tool's result>" + task_complete
//	[mcp-image] everything__get-tiny-image, then "Here is the image." + task_complete
//	[attachments] "Attachments seen: 1 image (image/png); text with PELICAN-42" — the prompt message's
//	            image parts (by their data: URL's type) and the first WORD-123 in its text — + task_complete
//	[facts]     "Facts: <the facts in the system prompt, as key: value, joined by | >" + task_complete
//	[plan], [reflect]  a plan and its reflections (see plan.go)
//	[chat]      "Echo: <prompt>", as is any request without tools
//	(none)      "Done: <prompt>" + task_complete
//
// A summarisation request (when a conversation outgrows the context
// window) gets a fixed summary, whatever the prompt.
//
// GET /mock/requests lists the body of every POST request the server was
// sent so far (the chat requests), oldest first, as a JSON array of strings: what a test reads to
// know what reached the model. POST /mock/hurry makes the slow streams in
// flight ([slow], [slow-code], [think]'s first step) send the rest at once: a test that
// has seen what it needed mid-stream need not wait it out. POST /mock/later
// lets [later] ask (then and ever after).
//
// Requests the real API would refuse get its 400 error (with
// -context-length N, also any request longer than N tokens); -log prints
// them, and every client that went away before its reply was complete.
// With -thinking the server is a thinking model in DeepSeek's thinking
// mode: an assistant message of the current turn that made tool calls
// must come back with its reasoning_content (else DeepSeek's 400); without
// it, reasoning_content on a message is refused as an unknown field.
//
// Usage:
//
//	go run ./e2e/mockmodel [-addr 127.0.0.1:0] [-log] [-models a,b] [-api-key KEY] [-context-length N] [-thinking]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "mockmodel:", err)
		os.Exit(1)
	}
}

// run parses args, serves until ctx is done and then stops the server.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	stderr = &lockedWriter{w: stderr}
	fs := flag.NewFlagSet("mockmodel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "`host:port` to listen on; port 0 picks a free port")
	logRejects := fs.Bool("log", false, "print every refused request, and every client that went away mid-reply, to stderr")
	modelList := fs.String("models", "mock-model", "comma-separated model `ids` that GET /v1/models lists")
	apiKey := fs.String("api-key", "", "the only bearer `token` accepted; empty accepts any, or none")
	contextLength := fs.Int("context-length", 0, "the model's context length in `tokens`: a longer request gets the real API's 400 context_length_exceeded (0: no limit)")
	thinking := fs.Bool("thinking", false, "answer as DeepSeek's thinking mode: the current turn's tool-call messages must come back with their reasoning_content")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	var models []string
	for _, m := range strings.Split(*modelList, ",") {
		if m = strings.TrimSpace(m); m != "" {
			models = append(models, m)
		}
	}
	if len(models) == 0 {
		return fmt.Errorf("-models lists no model")
	}

	s := compat.NewServer(script)
	s.APIKey = strings.TrimSpace(*apiKey)
	s.AllowNoAuth = s.APIKey == ""
	s.Models = models
	s.ContextLength = *contextLength
	s.Thinking = *thinking
	if *logRejects {
		s.OnReject = func(msg string) { fmt.Fprintln(stderr, "mockmodel: rejected", msg) }
		go func() {
			for {
				select {
				case <-s.Disconnects():
					fmt.Fprintln(stderr, "mockmodel: client went away before its reply was complete")
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{Handler: &recorder{next: s}, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		s.Close()
		_ = srv.Close()
	}()
	if _, err := fmt.Fprintln(stdout, "listening", "http://"+ln.Addr().String()); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

// recorder keeps the body of every POST request before next serves it,
// and lists them at GET /mock/requests.
type recorder struct {
	next   http.Handler
	mu     sync.Mutex
	bodies []string
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/mock/requests" && r.Method == http.MethodGet {
		rc.mu.Lock()
		b, err := json.Marshal(append([]string{}, rc.bodies...))
		rc.mu.Unlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}
	if r.URL.Path == "/mock/hurry" && r.Method == http.MethodPost {
		hurry.open()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.URL.Path == "/mock/later" && r.Method == http.MethodPost {
		releaseLater()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		rc.mu.Lock()
		rc.bodies = append(rc.bodies, string(body))
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rc.next.ServeHTTP(w, r)
}

// lockedWriter serialises writes from concurrent request handlers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

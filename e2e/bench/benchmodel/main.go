// Command benchmodel is the scripted OpenAI-compatible model server of the
// window benchmarks (e2e/bench/*.mjs). It prints "listening http://HOST:PORT"
// once it accepts requests and serves until SIGINT or SIGTERM. Every
// response is paced at -rate server-sent events a second (compat.Paced):
// with the default 1,000, a streamed reply of N words takes N ms, one token
// (one word) per event, the way a fast model streams.
//
// The reply depends on a marker in the last user message:
//
//	[stream N]  N words "tok1 tok2 …", then task_complete
//	[long N]    about N bytes of Markdown ending "The end of the long reply.",
//	            then task_complete
//	(none)      "Done." + task_complete
//
// A request to summarise the conversation's older turns (the context
// window's, Request.AsksForSummary) gets a one-line summary, whatever
// markers the turns hold: the Stop benchmark's many stopped replies in one
// conversation outgrow the context budget, and a summary that streamed
// 20,000 words and held open would never end the step.
//
// A prompt that says "stop me" gets its text and then no end: the reply
// holds open until the client goes away, so a Stop always meets a
// running task, however far behind a busy machine's window falls.
//
// Usage:
//
//	go run ./e2e/bench/benchmodel [-addr 127.0.0.1:0] [-rate 1000]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/e2e/bench/longreply"
)

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if err := run(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "benchmodel:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	addr := flag.String("addr", "127.0.0.1:0", "`host:port` to listen on")
	rate := flag.Float64("rate", 1000, "server-sent events a second")
	flag.Parse()

	s := compat.NewServer(script)
	s.AllowNoAuth = true
	s.OnReject = func(msg string) { fmt.Fprintln(os.Stderr, "benchmodel: rejected", msg) }
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: compat.Paced(s, *rate)}
	go func() {
		<-ctx.Done()
		s.Close()
		_ = srv.Close()
	}()
	fmt.Println("listening", "http://"+ln.Addr().String())
	return srv.Serve(ln)
}

var (
	streamMarker = regexp.MustCompile(`\[stream (\d+)\]`)
	longMarker   = regexp.MustCompile(`\[long (\d+)\]`)
)

func script(req *compat.Request) compat.Reply {
	if req.AsksForSummary() {
		return compat.Reply{Text: "Summary: the person asked for long replies and stopped each one."}
	}
	prompt := req.LastUserText()
	done := []chat.ToolCall{{Name: "task_complete", Arguments: `{"summary":"Finished the benchmark task"}`}}
	if len(req.Tools) == 0 {
		done = nil
	}
	if m := streamMarker.FindStringSubmatch(prompt); m != nil {
		n, _ := strconv.Atoi(m[1])
		return held(prompt, compat.Reply{Text: longreply.Tokens(n), ToolCalls: done})
	}
	if m := longMarker.FindStringSubmatch(prompt); m != nil {
		n, _ := strconv.Atoi(m[1])
		return held(prompt, compat.Reply{Text: longreply.Markdown(n), ToolCalls: done})
	}
	return compat.Reply{Text: "Done.", ToolCalls: done}
}

// held makes the reply to a prompt that says "stop me" hold open after
// its text, with no end, until the client goes away.
func held(prompt string, r compat.Reply) compat.Reply {
	if strings.Contains(prompt, "stop me") {
		r.ToolCalls, r.HangAfterText = nil, true
	}
	return r
}

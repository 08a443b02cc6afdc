package stall_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/llm/stall"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/require"
)

// short are timeouts small enough for a test; a test asserts what was cut,
// never how long it took.
var short = stall.Timeouts{FirstByte: 200 * time.Millisecond, Idle: 200 * time.Millisecond}

// provider is an openai adapter on a scripted server, through a Transport
// whose timeouts are those in limits when a request starts. The SDK's own
// retries are left at their default: a stall must not be multiplied by them.
func provider(t *testing.T, reply compat.Reply, limits *atomic.Value) (*openai.Provider, *compat.Server) {
	t.Helper()
	return providerVia(t, nil, reply, limits)
}

// received passes a cut on to its request only once the server has read
// the request: these tests are of a server that has it and stays silent,
// and on a loaded machine the short limit could cut the request while it
// was still being sent, before the server could see it go (a fresh
// clone's make test waited a minute for that hang-up).
func received(s *compat.Server) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		ctx, cancel := context.WithCancel(context.WithoutCancel(req.Context()))
		go func() {
			<-req.Context().Done()
			for len(s.Requests()) == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		return http.DefaultTransport.RoundTrip(req.WithContext(ctx))
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// providerVia is provider sending through the transport base makes for
// the server (nil: http.DefaultTransport).
func providerVia(t *testing.T, base func(*compat.Server) http.RoundTripper, reply compat.Reply, limits *atomic.Value) (*openai.Provider, *compat.Server) {
	t.Helper()
	s := compat.NewServer(func(*compat.Request) compat.Reply { return reply })
	url, stop := s.Start()
	t.Cleanup(stop)
	var via http.RoundTripper
	if base != nil {
		via = base(s)
	}
	tr := &stall.Transport{Base: via, Timeouts: func(context.Context) stall.Timeouts { return limits.Load().(stall.Timeouts) }}
	return openai.New(openai.Config{BaseURL: url, APIKey: "sk-test", Model: "m", HTTPClient: tr.Client()}), s
}

func limitsOf(l stall.Timeouts) *atomic.Value {
	v := &atomic.Value{}
	v.Store(l)
	return v
}

func ask(p llm.Provider, ctx context.Context, text *strings.Builder) (llm.Response, error) {
	return p.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}},
		llm.Deltas{Text: func(s string) { text.WriteString(s) }})
}

func TestSilenceBeforeTheFirstByteIsCutOnce(t *testing.T) {
	for name, where := range map[string]compat.Stall{"nothing at all": compat.StallBeforeHeaders, "headers and nothing": compat.StallAfterHeaders} {
		t.Run(name, func(t *testing.T) {
			p, s := providerVia(t, received, compat.Reply{Text: "never sent", Stall: where}, limitsOf(short))
			var text strings.Builder
			_, err := ask(p, context.Background(), &text)
			require.ErrorIs(t, err, llm.ErrStalled)
			var se *llm.StallError
			require.ErrorAs(t, err, &se)
			require.True(t, se.FirstByte, "cut before the first byte")
			require.Equal(t, short.FirstByte, se.Silence)
			require.Empty(t, text.String())
			// The server saw one request, and the client go away from it:
			// the SDK did not retry the stall on its own.
			select {
			case <-s.Disconnects():
			case <-time.After(time.Minute):
				t.Fatal("the stalled request was never closed")
			}
			require.Len(t, s.Requests(), 1)
			require.Empty(t, s.Rejections())
		})
	}
}

func TestSilenceBetweenChunksIsCut(t *testing.T) {
	// The text reaches the client in one read (compat.Gather), so the
	// only silence the idle limit can cut is the one after it, which never
	// ends: no race of the limit against the gaps between chunks.
	p, s := providerVia(t, func(*compat.Server) http.RoundTripper { return compat.Gather(`"Half-an-answer"`) }, compat.Reply{Text: "Half-an-answer", HangAfterText: true},
		limitsOf(stall.Timeouts{FirstByte: time.Hour, Idle: time.Second}))
	var text strings.Builder
	_, err := ask(p, context.Background(), &text)
	var se *llm.StallError
	require.ErrorAs(t, err, &se)
	require.False(t, se.FirstByte, "cut in the middle of the reply")
	require.Equal(t, time.Second, se.Silence)
	require.Equal(t, "Half-an-answer", text.String(), "what came before the silence was streamed")
	<-s.Disconnects()
	require.Len(t, s.Requests(), 1)
}

func TestSteadyStreamIsNotCut(t *testing.T) {
	// Each chunk comes well within the idle timeout, though the whole reply
	// takes longer than it.
	p, _ := provider(t, compat.Reply{Text: strings.Repeat("word ", 30), ChunkDelay: 10 * time.Millisecond},
		limitsOf(stall.Timeouts{FirstByte: 5 * time.Second, Idle: 5 * time.Second}))
	var text strings.Builder
	resp, err := ask(p, context.Background(), &text)
	require.NoError(t, err)
	require.Equal(t, strings.TrimSpace(strings.Repeat("word ", 30)), strings.TrimSpace(resp.Content))
}

func TestCancelStillEndsTheCallAtOnce(t *testing.T) {
	p, s := provider(t, compat.Reply{Text: "Thinking", HangAfterText: true},
		limitsOf(stall.Timeouts{FirstByte: time.Hour, Idle: time.Hour}))
	ctx, cancel := context.WithCancel(context.Background())
	var text strings.Builder
	_, err := p.Stream(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}},
		llm.Deltas{Text: func(d string) { text.WriteString(d); cancel() }})
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, errors.Is(err, llm.ErrStalled), "Stop is not a stall")
	<-s.Disconnects()
}

func TestTimeoutsAreReadForEveryCall(t *testing.T) {
	limits := limitsOf(stall.Timeouts{})
	p, _ := provider(t, compat.Reply{Stall: compat.StallAfterHeaders}, limits)
	ctx, cancel := context.WithCancel(context.Background())
	var text strings.Builder
	// With no limits, a silent server is waited on until the caller gives up.
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	_, err := ask(p, ctx, &text)
	require.ErrorIs(t, err, context.Canceled)
	// The next call has the new settings.
	limits.Store(short)
	_, err = ask(p, context.Background(), &text)
	require.ErrorIs(t, err, llm.ErrStalled)
}

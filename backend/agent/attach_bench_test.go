package agent_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"net/http"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
)

// BenchmarkAttachPhoto sends a message with a 12-megapixel photo (4000×3000
// JPEG, as a phone takes it; 400×300 under ERRAND_BENCH_SMOKE) and
// measures the time from the person's Add (the checks, the decode and the
// downscale to 2,048 px) through Send to the request leaving the adapter
// (the HTTP round trip starting), and what it costs in memory: bytes
// allocated and the heap's peak above its level before. Each sample is a
// new content, so nothing is cached. It fails only when the request does
// not carry the image at the model's size.
func BenchmarkAttachPhoto(b *testing.B) {
	w, h := size(4000, 400), size(3000, 300)
	samples := size(5, 1)
	env := newAttachBenchEnv(b)
	var total, add []time.Duration
	var allocs, peaks []float64
	for i := 0; i < samples; i++ {
		photo := photoJPEG(b, w, h, i)
		conv := env.conversation(b)
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		peak := watchHeap(before.HeapAlloc)
		t0 := time.Now()
		a, err := env.files.Add(context.Background(), "photo.jpg", photo)
		if err != nil {
			b.Fatal(err)
		}
		added := time.Since(t0)
		atts, err := env.files.Resolve(context.Background(), []string{a.ID})
		if err != nil {
			b.Fatal(err)
		}
		task, err := env.runner.SendWith(context.Background(), conv, "What is in this photo?", atts)
		if err != nil {
			b.Fatal(err)
		}
		left := env.left.next(b)
		heapPeak := peak()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if ev := waitEnd(b, env.events.endCh(task.ID), "the task to end"); ev.status != chat.StatusCompleted {
			b.Fatalf("the task ended %s", ev.status)
		}

		total = append(total, left.Sub(t0))
		add = append(add, added)
		allocs = append(allocs, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
		peaks = append(peaks, float64(heapPeak)/(1<<20))
		checkPhotoSent(b, env.server, w, h)
	}
	report(b, "attach.photo12mp.send_to_request_ms.median", ms(percentile(total, 50)), "ms")
	report(b, "attach.photo12mp.add_ms.median", ms(percentile(add, 50)), "ms")
	report(b, "attach.photo12mp.allocated.median", median(allocs), "MB")
	report(b, "attach.photo12mp.heap_peak.median", median(peaks), "MB")
}

type attachBenchEnv struct {
	*benchEnv
	files *attach.Service
	left  *departures
}

func newAttachBenchEnv(b *testing.B) *attachBenchEnv {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"seen"}`}}}
	})
	url, stop := srv.Start()
	files := attach.Open(filepath.Join(b.TempDir(), "attachments"), st, st)
	left := &departures{ch: make(chan time.Time, 4)}
	client := &http.Client{Transport: left}
	e := &benchEnv{store: st, server: srv, events: newBenchEvents(), url: url, storeTime: &timer{}, modelTime: &timer{}}
	e.runner = agent.New(agent.Options{
		Store:       st,
		Provider:    openai.New(openai.Config{BaseURL: url, Model: "bench-vision-model", MaxRetries: -1, HTTPClient: client}),
		Events:      e.events,
		Attachments: files,
	})
	tearDown(b, e.runner, srv, true, stop, func() { st.Close() })
	return &attachBenchEnv{benchEnv: e, files: files, left: left}
}

// departures timestamps each request as it leaves the adapter: when the
// HTTP client starts its round trip.
type departures struct {
	ch chan time.Time
}

func (d *departures) RoundTrip(r *http.Request) (*http.Response, error) {
	select {
	case d.ch <- time.Now():
	default:
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (d *departures) next(b *testing.B) time.Time {
	select {
	case t := <-d.ch:
		return t
	case <-time.After(benchWait):
		b.Fatal("no request left the adapter")
		return time.Time{}
	}
}

// watchHeap samples the heap every millisecond until the returned func
// is called, which gives the highest it saw above base. The figure is a
// sample (a peak between two samples is missed); nothing depends on it.
func watchHeap(base uint64) func() uint64 {
	var top atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base && m.HeapAlloc-base > top.Load() {
				top.Store(m.HeapAlloc - base)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		wg.Wait()
		return top.Load()
	}
}

// photoJPEG is a w×h photo-like JPEG (smooth gradients with grain, so it
// compresses as a photo does), different for each seed.
func photoJPEG(b *testing.B, w, h, seed int) []byte {
	b.Helper()
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	n := uint32(seed*7919 + 1)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n = n*1664525 + 1013904223
			img.Y[y*img.YStride+x] = uint8((x*255/w+y*255/h)/2) + uint8(n>>28)
		}
	}
	for i := range img.Cb {
		img.Cb[i], img.Cr[i] = 110+uint8(i%40), 140-uint8(i%30)
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 90}); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// checkPhotoSent fails unless the last request carries one image at the
// model's size.
func checkPhotoSent(b *testing.B, srv *compat.Server, w, h int) {
	b.Helper()
	reqs := srv.Requests()
	var imgs []compat.Image
	for _, m := range reqs[len(reqs)-1].Messages {
		imgs = append(imgs, m.Images()...)
	}
	if len(imgs) != 1 {
		b.Fatalf("the request carries %d images, not 1", len(imgs))
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(imgs[0].Data))
	if err != nil {
		b.Fatal(err)
	}
	wantW, wantH := w, h
	if w > attach.ModelSide {
		wantW, wantH = attach.ModelSide, h*attach.ModelSide/w
	}
	if cfg.Width != wantW || cfg.Height != wantH {
		b.Fatalf("the image went at %d×%d, not %d×%d", cfg.Width, cfg.Height, wantW, wantH)
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// Command history times the store on a large history, as the bound
// methods use it: opening the database, listing the conversations, and
// loading the largest conversation (plus encoding it to JSON, as Wails does
// before handing it to the window) — whole, as before, and in pages, as the
// window reads them now: the list's first page and its last, and the
// largest conversation's latest page and its oldest. It prints one JSON
// line per figure, the format e2e/bench/table.mjs reads.
//
// Usage:
//
//	go run ./e2e/bench/history -dir /tmp/errand-big [-runs 20]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(1)
	}
}

type figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

func emit(name string, value float64, unit string) {
	b, _ := json.Marshal(figure{name, value, unit})
	fmt.Println(string(b))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// The page sizes the window asks for (frontend/src/stores).
const (
	listPage    = 50
	messagePage = 100
)

// timed runs fn once, then runs times, and returns the first time, the
// median and the JSON size of fn's last result.
func timed(runs int, fn func() (any, error)) (first, med time.Duration, size int, err error) {
	var times []time.Duration
	var v any
	for i := 0; i <= runs; i++ {
		t0 := time.Now()
		if v, err = fn(); err != nil {
			return 0, 0, 0, err
		}
		b, _ := json.Marshal(v)
		d := time.Since(t0)
		size = len(b)
		if i == 0 {
			first = d
		} else {
			times = append(times, d)
		}
	}
	return first, median(times), size, nil
}

// pages times what the window reads now: a page of the list (the first,
// and the last, reached through every cursor), and a page of the largest
// conversation's messages (the latest, with its tasks and usage, and the
// oldest), each with its JSON.
func pages(ctx context.Context, st *store.Store, prefix string, runs int, biggest string) error {
	report := func(name string, first, med time.Duration, size int) {
		emit(prefix+"."+name+".first", ms(first), "ms")
		emit(prefix+"."+name+".median_with_json", ms(med), "ms")
		emit(prefix+"."+name+".json_bytes", float64(size), "bytes")
	}
	first, med, size, err := timed(runs, func() (any, error) {
		return st.ConversationsPage(ctx, chat.ConversationQuery{Limit: listPage})
	})
	if err != nil {
		return err
	}
	report("list_page", first, med, size)
	// The last page: walk the cursors once, then time the last one.
	cursor, pagesRead := "", 0
	for {
		p, err := st.ConversationsPage(ctx, chat.ConversationQuery{Cursor: cursor, Limit: listPage})
		if err != nil {
			return err
		}
		pagesRead++
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
	}
	emit(prefix+".list_page.pages", float64(pagesRead), "count")
	first, med, size, err = timed(runs, func() (any, error) {
		return st.ConversationsPage(ctx, chat.ConversationQuery{Cursor: cursor, Limit: listPage})
	})
	if err != nil {
		return err
	}
	report("list_last_page", first, med, size)
	first, med, size, err = timed(runs, func() (any, error) {
		return st.ConversationsPage(ctx, chat.ConversationQuery{Title: "zz-no-such-title", Limit: listPage})
	})
	if err != nil {
		return err
	}
	report("list_search", first, med, size)

	first, med, size, err = timed(runs, func() (any, error) { return st.OpenConversation(ctx, biggest, messagePage) })
	if err != nil {
		return err
	}
	report("open_page", first, med, size)
	var oldest string
	if err := st.DB().QueryRowContext(ctx, `SELECT id FROM messages WHERE conversation_id = ? ORDER BY seq LIMIT 1 OFFSET ?`,
		biggest, messagePage).Scan(&oldest); err != nil {
		return err
	}
	first, med, size, err = timed(runs, func() (any, error) { return st.MessagesBefore(ctx, biggest, oldest, messagePage) })
	if err != nil {
		return err
	}
	report("older_page", first, med, size)
	return nil
}

func run() error {
	dir := flag.String("dir", "", "the seeded data `directory`")
	runs := flag.Int("runs", 20, "timed repetitions after the first call")
	prefix := flag.String("prefix", "history", "figure name prefix")
	flag.Parse()
	if *dir == "" {
		return fmt.Errorf("-dir is required")
	}
	ctx := context.Background()

	t0 := time.Now()
	st, err := store.Open(ctx, filepath.Join(*dir, store.FileName))
	if err != nil {
		return err
	}
	defer st.Close()
	emit(*prefix+".store_open", ms(time.Since(t0)), "ms")

	// List: the first call after opening, then the median of runs.
	t0 = time.Now()
	list, err := st.ListConversations(ctx)
	if err != nil {
		return err
	}
	first := time.Since(t0)
	var times []time.Duration
	for i := 0; i < *runs; i++ {
		t0 = time.Now()
		if _, err := st.ListConversations(ctx); err != nil {
			return err
		}
		times = append(times, time.Since(t0))
	}
	listJSON, _ := json.Marshal(list)
	emit(*prefix+".conversations", float64(len(list)), "count")
	emit(*prefix+".list.first", ms(first), "ms")
	emit(*prefix+".list.median", ms(median(times)), "ms")
	emit(*prefix+".list.json_bytes", float64(len(listJSON)), "bytes")
	if len(list) == 0 {
		return nil
	}

	// Open the largest conversation (the newest, as seeded).
	var count int
	biggest := list[0].ID
	if err := st.DB().QueryRowContext(ctx,
		`SELECT conversation_id, count(*) n FROM messages GROUP BY conversation_id ORDER BY n DESC LIMIT 1`).
		Scan(&biggest, &count); err != nil {
		return err
	}
	var view chat.ConversationView
	load := func() (time.Duration, time.Duration, int, error) {
		t0 := time.Now()
		v, err := st.LoadConversation(ctx, biggest)
		if err != nil {
			return 0, 0, 0, err
		}
		loaded := time.Since(t0)
		b, err := json.Marshal(v)
		view = v
		return loaded, time.Since(t0), len(b), err
	}
	firstLoad, firstWithJSON, size, err := load()
	if err != nil {
		return err
	}
	times = times[:0]
	var withJSON []time.Duration
	for i := 0; i < *runs; i++ {
		l, j, _, err := load()
		if err != nil {
			return err
		}
		times = append(times, l)
		withJSON = append(withJSON, j)
	}
	emit(*prefix+".open.messages", float64(len(view.Messages)), "count")
	emit(*prefix+".open.first", ms(firstLoad), "ms")
	emit(*prefix+".open.first_with_json", ms(firstWithJSON), "ms")
	emit(*prefix+".open.median", ms(median(times)), "ms")
	emit(*prefix+".open.median_with_json", ms(median(withJSON)), "ms")
	emit(*prefix+".open.json_bytes", float64(size), "bytes")

	if err := pages(ctx, st, *prefix, *runs, biggest); err != nil {
		return err
	}

	// The seeded transcript must be one the runner accepts: every tool
	// call answered exactly once.
	open := map[string]int{}
	for _, m := range view.Messages {
		for _, c := range m.ToolCalls {
			open[c.ID]++
		}
		if m.Role == chat.RoleTool {
			open[m.ToolCallID]--
		}
	}
	for id, n := range open {
		if n != 0 {
			return fmt.Errorf("conversation %s: tool call %s has %d results too few", biggest, id, n)
		}
	}
	return nil
}

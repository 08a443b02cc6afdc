package archive

import (
	"cmp"
	"slices"

	"github.com/errand-app/errand/backend/chat"
)

// What an imported message or task may hold: a person's message as much
// as one typed here, any other message (a long reply, a tool's output, a
// model's thinking) at most maxImportedText bytes, and counters that are
// whole, finite, never negative and below maxCount.
const (
	maxImportedText = 16 << 20
	maxCount        = 1 << 40
)

// checkMessage refuses a message Errand could not have written: an
// unknown outcome or delivery, text past its bound, an absurd counter.
func checkMessage(i int, m chat.Message) error {
	switch m.Outcome {
	case "", chat.OutcomeDenied, chat.OutcomeStopped, chat.OutcomeCutOff:
	default:
		return chat.Errorf(chat.CodeInvalid, "message %d has the unknown outcome %s", i+1, chat.Quote(string(m.Outcome)))
	}
	switch m.Delivery {
	case "", chat.DeliveryQueued, chat.DeliveryNotDelivered:
	default:
		return chat.Errorf(chat.CodeInvalid, "message %d has the unknown delivery %s", i+1, chat.Quote(string(m.Delivery)))
	}
	if m.Role == chat.RoleUser {
		if err := chat.CheckMessage(m.Content); err != nil {
			return chat.Wrap(chat.CodeInvalid, err, "message %d: %s", i+1, chat.ErrorMessage(err))
		}
	}
	size := len(m.Content) + len(m.Reasoning)
	for _, c := range m.ToolCalls {
		size += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	if size > maxImportedText {
		return chat.Errorf(chat.CodeInvalid, "message %d is larger than the %d MB Errand imports in one message", i+1, maxImportedText>>20)
	}
	counters := []int64{int64(m.Step), m.ReasoningMS, int64(m.Rev)}
	if m.Usage != nil {
		counters = append(counters, usageCounters(*m.Usage)...)
	}
	if !sane(counters...) || !saneCost(m.CostUSD) {
		return chat.Errorf(chat.CodeInvalid, "message %d has a count or cost that cannot be one", i+1)
	}
	return nil
}

// checkTask refuses a task with a counter, a cost or a limit that cannot
// be one.
func checkTask(t chat.Task) error {
	counters := append(usageCounters(t.Usage), int64(t.StepCount), t.Rev, t.ActiveMS,
		int64(t.ContextTokens), int64(t.ContextLimit), int64(t.Limits.MaxSteps))
	if !sane(counters...) || !saneCost(t.CostUSD) || !saneCost(t.Limits.MaxCostUSD) || !saneCost(t.Limits.MaxMinutes) {
		return chat.Errorf(chat.CodeInvalid, "a task has a count, cost or limit that cannot be one")
	}
	if err := chat.CheckModelName(t.Model); err != nil {
		return err
	}
	return nil
}

// checkSummary refuses a summary past the text bound or one that names a
// negative place.
func checkSummary(s chat.Summary) error {
	if len(s.Text)+len(s.ToolLog) > maxImportedText || !sane(s.ThroughSeq) {
		return chat.Errorf(chat.CodeInvalid, "a summary is larger than %d MB or names a place that cannot be one", maxImportedText>>20)
	}
	return nil
}

func usageCounters(u chat.Usage) []int64 {
	return []int64{u.PromptTokens, u.CompletionTokens, u.TotalTokens, u.CacheReadTokens, u.CacheWriteTokens}
}

func sane(counts ...int64) bool {
	for _, n := range counts {
		if n < 0 || n >= maxCount {
			return false
		}
	}
	return true
}

func saneCost(v float64) bool { return v >= 0 && v <= chat.CostCeilingUSD }

// renumber gives the messages off the current branch new numbers, from 1:
// one to each path a switch took off, the order of the file's numbers
// kept. A number the file gives to messages that are not one path (two
// sub-trees, say, which a switch back would mix into one branch) is split
// into one per path; a huge number (2^63-1) becomes a small one, so that
// later switches can count on.
func renumber(msgs []chat.Message) {
	type path struct {
		old, first int64
		members    []int
	}
	var paths []*path
	tip := map[string]*path{} // the last message of each path so far
	for i, m := range msgs {
		if m.OffBranch == 0 {
			continue
		}
		p, ok := tip[m.ParentID]
		if !ok || p.old != m.OffBranch {
			p = &path{old: m.OffBranch, first: m.Seq}
			paths = append(paths, p)
		}
		delete(tip, m.ParentID)
		p.members = append(p.members, i)
		tip[m.ID] = p
	}
	slices.SortStableFunc(paths, func(a, b *path) int { return cmp.Or(cmp.Compare(a.old, b.old), cmp.Compare(a.first, b.first)) })
	for n, p := range paths {
		for _, i := range p.members {
			msgs[i].OffBranch = int64(n + 1)
		}
	}
}

// checkState refuses a conversation state Errand could not have written:
// an unknown state or ender, or an end reason over 1 KB. A file before
// version 5 has none (the conversation is active).
func checkState(c chat.Conversation) error {
	switch c.State {
	case "", chat.StateActive, chat.StateCompleted:
		if c.EndedBy != "" || c.EndReason != "" {
			return chat.Errorf(chat.CodeInvalid, "a conversation that did not end early has an end reason")
		}
		return nil
	case chat.StateEnded:
	default:
		return chat.Errorf(chat.CodeInvalid, "a conversation has the unknown state %s", chat.Quote(string(c.State)))
	}
	if c.EndedBy != chat.EndedByAgent && c.EndedBy != chat.EndedByPerson {
		return chat.Errorf(chat.CodeInvalid, "an ended conversation says nobody ended it")
	}
	if len(c.EndReason) > chat.MaxEndReasonBytes {
		return chat.Errorf(chat.CodeInvalid, "a conversation's end reason is longer than 1 KB")
	}
	return nil
}

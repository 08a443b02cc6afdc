package archive

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// Markdown writes a conversation's current branch to read: its title,
// the compaction summaries, then every message with who wrote it and
// when; tool calls are folded (<details>) with their results. Message
// text is Markdown already and is written as it is; everything else
// (arguments, tool output, titles) is fenced or escaped so that it cannot
// break the page.
func Markdown(w io.Writer, r chat.ConversationRecord) error {
	r = currentBranch(r)
	var b strings.Builder
	title := r.Conversation.Title
	if title == "" {
		title = "New conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", escapeLine(title))
	fmt.Fprintf(&b, "_Exported from Errand · started %s · %d messages_\n\n", stamp(r.Conversation.CreatedAt), len(r.Messages))
	summaries := map[string]chat.Summary{}
	for _, s := range r.Summaries {
		summaries[s.ID] = s
	}
	if len(r.Summaries) > 0 {
		last := r.Summaries[len(r.Summaries)-1]
		b.WriteString("## Summary\n\n")
		b.WriteString("What the agent keeps in mind of the earlier messages (written when the conversation was compacted):\n\n")
		b.WriteString(quote(last.Text))
		b.WriteString("\n")
	}
	writePlan(&b, r.Tasks)
	b.WriteString("## Messages\n\n")
	results := map[string]chat.Message{}
	for _, m := range r.Messages {
		if m.Role == chat.RoleTool {
			results[m.ToolCallID] = m
		}
	}
	for _, m := range r.Messages {
		writeMessage(&b, m, results, summaries)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// currentBranch is the record without what is off its current branch:
// the other versions, and the tasks and summaries only they name.
func currentBranch(r chat.ConversationRecord) chat.ConversationRecord {
	on, off := map[string]bool{}, map[string]bool{}
	msgs := make([]chat.Message, 0, len(r.Messages))
	for _, m := range r.Messages {
		if m.OffBranch != 0 {
			off[m.TaskID], off[m.SummaryID] = true, true
			continue
		}
		on[m.TaskID], on[m.SummaryID] = true, true
		msgs = append(msgs, m)
	}
	r.Messages = msgs
	elsewhere := func(id string) bool { return off[id] && !on[id] }
	tasks := make([]chat.Task, 0, len(r.Tasks))
	for _, t := range r.Tasks {
		if !elsewhere(t.ID) {
			tasks = append(tasks, t)
		}
	}
	sums := make([]chat.Summary, 0, len(r.Summaries))
	for _, s := range r.Summaries {
		if !elsewhere(s.ID) {
			sums = append(sums, s)
		}
	}
	r.Tasks, r.Summaries = tasks, sums
	return r
}

// planMarks are a plan step's checkbox and how its status reads.
var planMarks = map[chat.StepStatus]string{
	chat.StepPending:    "- [ ] %s",
	chat.StepInProgress: "- [ ] %s _(in progress)_",
	chat.StepDone:       "- [x] %s",
	chat.StepSkipped:    "- [ ] ~~%s~~ _(skipped)_",
}

// writePlan writes the newest plan of the conversation's tasks as a
// checklist, with its note (the success criteria).
func writePlan(b *strings.Builder, tasks []chat.Task) {
	var p *chat.Plan
	for _, t := range tasks {
		if t.Plan != nil {
			p = t.Plan
		}
	}
	if p == nil {
		return
	}
	fmt.Fprintf(b, "## Plan · %d of %d\n\n", p.Done(), len(p.Steps))
	for _, s := range p.Steps {
		fmt.Fprintf(b, planMarks[s.Status]+"\n", escapeLine(s.Title))
	}
	if p.Note != "" {
		b.WriteString("\n" + quote(p.Note))
	}
	b.WriteString("\n")
}

func writeMessage(b *strings.Builder, m chat.Message, results map[string]chat.Message, summaries map[string]chat.Summary) {
	switch m.Role {
	case chat.RoleTool:
		return // written with its call
	case chat.RoleSystem:
		fmt.Fprintf(b, "> _%s · %s_\n\n", escapeLine(m.Content), stamp(m.CreatedAt))
		if s, ok := summaries[m.SummaryID]; ok {
			b.WriteString("<details><summary>Summary</summary>\n\n")
			b.WriteString(quote(s.Text))
			b.WriteString("\n</details>\n\n")
		}
		return
	}
	who := "You"
	if m.Role == chat.RoleAssistant {
		who = "Errand"
	}
	fmt.Fprintf(b, "### %s · %s\n\n", who, stamp(m.CreatedAt))
	writeThinking(b, m)
	if text := strings.TrimSpace(m.Content); text != "" {
		b.WriteString(text)
		b.WriteString("\n\n")
	}
	writeAttachments(b, m)
	for _, call := range m.ToolCalls {
		fmt.Fprintf(b, "<details><summary>Tool call: %s</summary>\n\n", escapeHTML(call.Name))
		b.WriteString(fence(call.Arguments, "json"))
		if res, ok := results[call.ID]; ok {
			if res.IsError {
				b.WriteString("Failed:\n\n")
			} else {
				b.WriteString("Result:\n\n")
			}
			b.WriteString(fence(res.Content, ""))
		}
		b.WriteString("</details>\n\n")
	}
}

// writeThinking writes a reply's reasoning folded, with how long the model
// thought, before its answer.
func writeThinking(b *strings.Builder, m chat.Message) {
	thought := strings.TrimSpace(m.Reasoning)
	if thought == "" {
		return
	}
	summary := "Thinking"
	if m.ReasoningMS > 0 {
		summary = fmt.Sprintf("Thought for %d s", max(1, (m.ReasoningMS+500)/1000))
	}
	fmt.Fprintf(b, "<details><summary>%s</summary>\n\n", summary)
	b.WriteString(quote(thought))
	b.WriteString("\n</details>\n\n")
}

func stamp(t time.Time) string { return t.Format("2006-01-02 15:04 MST") }

// fence puts text in a code block whose fence is longer than any run of
// backticks inside it.
func fence(text, lang string) string {
	n, run := 3, 0
	for _, r := range text {
		if r == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + f + "\n\n"
}

// quote makes text a block quote.
func quote(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return "> " + strings.Join(lines, "\n> ") + "\n"
}

// escapeLine keeps text on one line and stops it from being read as HTML.
func escapeLine(s string) string {
	return escapeHTML(strings.Join(strings.Fields(s), " "))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func escapeHTML(s string) string { return htmlEscaper.Replace(s) }

package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// The demo scripts the built-in proactive agents, recognised by the first
// line of their instructions (a duplicate keeps it, so it is scripted too).
const (
	interviewerMark = "You are Interviewer"
	quizMark        = "You are Quiz"
)

// agentScript answers a request of a scripted agent; ok is false for any
// other agent.
func agentScript(req *compat.Request) (r compat.Reply, ok bool) {
	if len(req.Messages) == 0 || req.Messages[0].Role != "system" {
		return r, false
	}
	system := req.Messages[0].Text()
	u := req.LastUser()
	var answers []string
	if u >= 0 {
		answers = askAnswers(req.Messages[u+1:])
	}
	switch {
	case strings.HasPrefix(system, interviewerMark):
		return interviewer(req, answers), true
	case strings.HasPrefix(system, quizMark):
		return quiz(req, answers), true
	}
	return r, false
}

// askAnswers are the results of the ask_user calls among msgs, in order.
func askAnswers(msgs []compat.Message) []string {
	var out []string
	for _, m := range msgs {
		if m.Role == "tool" && calledTool(msgs, m.ToolCallID) == ToolAskUser {
			out = append(out, m.Text())
		}
	}
	return out
}

func interviewer(req *compat.Request, answers []string) compat.Reply {
	switch len(answers) {
	case 0:
		return withCall(req, "Hi! I'm the Interviewer (demo model). I'll collect what your project needs in two short questions, then write a summary.",
			ToolAskUser, map[string]any{
				"question": "Tell me about your project",
				"fields": []map[string]any{
					{"name": "project", "label": "Project name", "type": "text", "required": true, "placeholder": "e.g. Garden planner"},
					{"name": "goal", "label": "What should it achieve?", "type": "textarea", "required": true},
					{"name": "deadline", "label": "Deadline", "type": "date"},
					{"name": "budget", "label": "Budget (USD)", "type": "number", "min": 0},
					{"name": "contact", "label": "Contact email", "type": "email"},
					{"name": "priority", "label": "Priority", "type": "select", "options": []string{"Low", "Medium", "High"}, "required": true},
					{"name": "confidence", "label": "How sure are you of the scope?", "type": "rating", "min": 1, "max": 5},
					{"name": "maintained", "label": "Will it need maintenance?", "type": "boolean"},
				},
				"input": map[string]any{"disabled": true, "placeholder": "Fill in the form above"},
			})
	case 1:
		return withCall(req, "Thanks, that's clear.", ToolAskUser, map[string]any{
			"question":    "Which of these matter most to you?",
			"choices":     []string{"Speed", "Cost", "Quality", "Security"},
			"multiple":    true,
			"allow_other": true,
			"input":       map[string]any{"disabled": true, "placeholder": "Pick above"},
		})
	default:
		return withCall(req, interviewSummary(answers[0], answers[1]), ToolTaskComplete, map[string]any{
			"summary": "Demo interview finished: requirements collected and summarised.",
		})
	}
}

// interviewSummary writes the summary of the form and the priorities.
func interviewSummary(form, priorities string) string {
	var values map[string]any
	_ = json.Unmarshal([]byte(form), &values)
	var picks []string
	_ = json.Unmarshal([]byte(priorities), &picks)
	var b strings.Builder
	b.WriteString("## Summary\n\n")
	for _, f := range []struct{ key, label string }{
		{"project", "Project"}, {"goal", "Goal"}, {"deadline", "Deadline"}, {"budget", "Budget (USD)"},
		{"contact", "Contact"}, {"priority", "Priority"}, {"confidence", "Confidence in the scope (1–5)"}, {"maintained", "Needs maintenance"},
	} {
		if v, ok := values[f.key]; ok {
			fmt.Fprintf(&b, "- **%s:** %v\n", f.label, v)
		}
	}
	if len(picks) > 0 {
		fmt.Fprintf(&b, "- **Matters most:** %s\n", strings.Join(picks, ", "))
	}
	b.WriteString("\n" + connect)
	return b.String()
}

// quizItem is one multiple-choice question and its right answer.
type quizItem struct {
	q       string
	choices []string
	right   string
}

var quizBank = map[string][]quizItem{
	"geography": {
		{"What is the capital of Australia?", []string{"Sydney", "Canberra", "Melbourne", "Perth"}, "Canberra"},
		{"Which is the longest river?", []string{"Nile", "Amazon", "Yangtze", "Danube"}, "Nile"},
		{"Which country has the most people?", []string{"India", "USA", "Brazil", "Russia"}, "India"},
	},
	"science": {
		{"What is H₂O?", []string{"Salt", "Water", "Oxygen", "Hydrogen"}, "Water"},
		{"Which planet is closest to the Sun?", []string{"Venus", "Mars", "Mercury", "Earth"}, "Mercury"},
		{"What do plants take in to make sugar?", []string{"Nitrogen", "Carbon dioxide", "Helium", "Oxygen"}, "Carbon dioxide"},
	},
	"history": {
		{"In which year did the Berlin Wall fall?", []string{"1979", "1989", "1991", "1961"}, "1989"},
		{"Who was the first person on the Moon?", []string{"Yuri Gagarin", "Buzz Aldrin", "Neil Armstrong", "John Glenn"}, "Neil Armstrong"},
		{"Which empire built Machu Picchu?", []string{"Aztec", "Maya", "Inca", "Olmec"}, "Inca"},
	},
}

func quizFor(topic string) []quizItem {
	if items, ok := quizBank[strings.ToLower(strings.TrimSpace(topic))]; ok {
		return items
	}
	return quizBank["science"]
}

func quiz(req *compat.Request, answers []string) compat.Reply {
	if len(answers) == 0 {
		return withCall(req, "Hi! I'm Quiz (demo model): three multiple-choice questions, then your score.", ToolAskUser, map[string]any{
			"question":    "Which topic should I quiz you on?",
			"choices":     []string{"Geography", "Science", "History"},
			"allow_other": true,
			"input":       map[string]any{"disabled": false, "placeholder": "Or type a topic"},
		})
	}
	if wantsToStop(answers[len(answers)-1]) && req.HasTool(ToolEndConversation) {
		return withCall(req, "All right, we stop here.", ToolEndConversation, map[string]any{"reason": "The person asked to stop the quiz."})
	}
	items := quizFor(answers[0])
	given := answers[1:]
	var text string
	if n := len(given); n > 0 {
		if it := items[n-1]; given[n-1] == it.right {
			text = "Right!"
		} else {
			text = "Not quite: it's " + it.right + "."
		}
	} else if _, ok := quizBank[strings.ToLower(strings.TrimSpace(answers[0]))]; ok {
		text = "Great, " + answers[0] + " it is."
	} else {
		text = "I only know a few topics offline, so here are science questions."
	}
	if len(given) < len(items) {
		it := items[len(given)]
		return withCall(req, text, ToolAskUser, map[string]any{
			"question": fmt.Sprintf("Question %d of %d: %s", len(given)+1, len(items), it.q),
			"choices":  it.choices,
			"input":    map[string]any{"disabled": true, "placeholder": "Choose an answer above"},
		})
	}
	score := 0
	for i, it := range items {
		if given[i] == it.right {
			score++
		}
	}
	text += fmt.Sprintf("\n\n**Your score: %d out of %d.**", score, len(items))
	return withCall(req, text, ToolTaskComplete, map[string]any{"summary": fmt.Sprintf("Demo quiz: %d out of %d right.", score, len(items))})
}

// wantsToStop reports whether an answer asks to end the conversation
// ("stop", "quit", "end"): the demo then calls end_conversation.
func wantsToStop(answer string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(answer), ".!")) {
	case "stop", "quit", "end":
		return true
	}
	return false
}

package mode

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
)

type labelled struct {
	want  chat.TaskMode
	depth int
	text  string
}

// loadTable reads testdata/labelled.tsv: label, depth, message.
func loadTable(tb testing.TB) []labelled {
	f, err := os.Open("testdata/labelled.tsv")
	require.NoError(tb, err)
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 3)
		require.Len(tb, cols, 3, "line %q", line)
		depth, err := strconv.Atoi(cols[1])
		require.NoError(tb, err)
		m, err := chat.ParseMode(cols[0])
		require.NoError(tb, err)
		out = append(out, labelled{m, depth, cols[2]})
	}
	require.NoError(tb, sc.Err())
	return out
}

// accuracy is the share of the table Decide labels as a person would.
func accuracy(tb testing.TB, table []labelled) (float64, []string) {
	var wrong []string
	for _, l := range table {
		if d := Decide(l.text, l.depth); d.Mode != l.want {
			wrong = append(wrong, string(l.want)+": "+l.text+" "+strconv.FormatFloat(d.Score, 'f', 1, 64)+" "+strings.Join(d.Reasons, ", "))
		}
	}
	return 1 - float64(len(wrong))/float64(len(table)), wrong
}

func TestDecideMatchesTheLabelledTable(t *testing.T) {
	table := loadTable(t)
	require.GreaterOrEqual(t, len(table), 60, "the table holds at least 60 labelled messages")
	acc, wrong := accuracy(t, table)
	t.Logf("local decision accuracy: %.1f%% of %d messages", acc*100, len(table))
	require.GreaterOrEqual(t, acc, 0.9, "misjudged:\n%s", strings.Join(wrong, "\n"))
}

func TestDecideIsSureOnlyFarFromTheThreshold(t *testing.T) {
	d := Decide("Create a Python script that renames every photo in ./photos by date, then run it", 0)
	require.Equal(t, chat.ModeAgent, d.Mode)
	require.True(t, d.Sure, "a file-writing request is clearly a task: %v", d.Reasons)

	d = Decide("What is the capital of Portugal?", 0)
	require.Equal(t, chat.ModeChat, d.Mode)
	require.True(t, d.Sure, "a short factual question is clearly a direct answer: %v", d.Reasons)

	d = Decide("Make a list of names", 0)
	require.False(t, d.Sure, "one weak clue leaves the decision open: score %.1f %v", d.Score, d.Reasons)
}

func TestForcedCommands(t *testing.T) {
	cases := []struct {
		in   string
		mode chat.TaskMode
		rest string
		ok   bool
		err  bool
	}{
		{"/task rename the photos", chat.ModeAgent, "rename the photos", true, false},
		{"  /chat what is a monad?", chat.ModeChat, "what is a monad?", true, false},
		{"/task\nwrite notes.md", chat.ModeAgent, "write notes.md", true, false},
		{"/task", "", "", true, true},
		{"/chat   ", "", "", true, true},
		{"/tasks are fun", "", "/tasks are fun", false, false},
		{"please /task this", "", "please /task this", false, false},
	}
	for _, c := range cases {
		m, rest, ok, err := Forced(c.in)
		require.Equal(t, c.ok, ok, c.in)
		if c.err {
			var ce *chat.Error
			require.ErrorAs(t, err, &ce, c.in)
			require.Equal(t, chat.CodeInvalid, ce.Code)
			require.Contains(t, ce.Message, "needs a message after it")
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.mode, m, c.in)
		require.Equal(t, c.rest, rest, c.in)
	}
}

func TestParseMode(t *testing.T) {
	m, err := chat.ParseMode(" Agent ")
	require.NoError(t, err)
	require.Equal(t, chat.ModeAgent, m)
	_, err = chat.ParseMode("turbo")
	require.ErrorContains(t, err, "Unknown mode")
}

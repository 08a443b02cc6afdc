package demo

import (
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// ToolWriteFile is the file tool the demo calls for a "write" prompt.
const ToolWriteFile = "write_file"

// writeStart answers the first step of a task whose prompt is "write
// PATH" or "write PATH: TEXT": it writes TEXT (or a line of its own) to
// PATH in the workspace, so the task's "Files changed" and "Undo changes"
// can be tried offline. ok is false for any other prompt.
func writeStart(req *compat.Request, prompt string) (r compat.Reply, ok bool) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(prompt), " ")
	path, text, hasText := strings.Cut(strings.TrimSpace(rest), ":")
	path = strings.TrimSpace(path)
	if !strings.EqualFold(verb, "write") || path == "" || strings.ContainsAny(path, " \n") {
		return r, false
	}
	text = strings.TrimSpace(text)
	if !hasText || text == "" {
		text = "Written by Errand's demo model."
	}
	return withCall(req, "I'll write "+path+".", ToolWriteFile, map[string]any{"path": path, "content": text + "\n"}), true
}

// writeDone reports the write and finishes (write_file's result starts
// with "Wrote" when it worked).
func writeDone(req *compat.Request, result string) compat.Reply {
	if !strings.HasPrefix(result, "Wrote ") {
		return withCall(req, "The write did not work: "+result, ToolTaskComplete,
			map[string]any{"summary": "Tried to write a file (demo); it did not work."})
	}
	return withCall(req, "", ToolTaskComplete, map[string]any{
		"summary": "Wrote the file (demo). \"Files changed\" shows its diff; \"Undo changes\" puts the folder back as it was.",
	})
}

package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Schema helpers.
func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func boolean(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}

func integer(desc string, min, max int) map[string]any {
	return map[string]any{"type": "integer", "description": desc, "minimum": min, "maximum": max}
}

// Object is a strict object schema: the listed properties, required ones
// named, nothing else.
func Object(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func decode(args json.RawMessage, v any) error { return json.Unmarshal(args, v) }

// splitLines splits text into lines that keep their "\n"; a last line
// without one is marked, as diff does, so a missing final newline shows.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		return lines[:len(lines)-1]
	}
	lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	return lines
}

func needWorkspace(env Env) error {
	if env.Workspace == nil {
		return fmt.Errorf("this conversation has no workspace folder")
	}
	return nil
}

// Limits of the file tools.
const (
	MaxReadBytes   = 256 << 10 // read_file
	maxListEntries = 500
	maxMatches     = 200
	maxSearchFile  = 2 << 20
)

// ListFiles lists a folder of the workspace.
type ListFiles struct{}

func (ListFiles) Name() string { return "list_files" }
func (ListFiles) Description() string {
	return "List the files and folders in a folder of the workspace (the workspace itself by default)."
}
func (ListFiles) Risk() Risk { return RiskRead }
func (ListFiles) Schema() map[string]any {
	return Object(map[string]any{
		"path":      str("Folder, relative to the workspace. Default: the workspace."),
		"recursive": boolean("List sub-folders too."),
	})
}

func (ListFiles) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var a struct {
		Path      string `json:"path"`
		Recursive bool   `json:"recursive"`
	}
	if err := decode(args, &a); err != nil {
		return errorResult("%v", err)
	}
	if err := needWorkspace(env); err != nil {
		return errorResult("%v", err)
	}
	fsys, dir, err := env.Workspace.FS(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	if fi, err := fs.Stat(fsys, dir); err == nil && !fi.IsDir() {
		return errorResult("%q is a file, not a folder; use read_file", a.Path)
	}
	var b strings.Builder
	n, more := 0, false
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil || p == dir {
			return nil
		}
		if n >= maxListEntries {
			more = true
			return fs.SkipAll
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if dir == "." {
			rel = p
		}
		switch {
		case env.Workspace.isProtected(d):
			fmt.Fprintf(&b, "%s/ (Errand's own data folder: off limits)\n", rel)
			n++
			return fs.SkipDir
		case d.IsDir():
			fmt.Fprintf(&b, "%s/\n", rel)
		case d.Type()&fs.ModeSymlink != 0:
			fmt.Fprintf(&b, "%s (symlink)\n", rel)
		case !d.Type().IsRegular():
			fmt.Fprintf(&b, "%s (%s)\n", rel, specialKind(d.Type()))
		default:
			size := int64(0)
			if fi, err := d.Info(); err == nil {
				size = fi.Size()
			}
			fmt.Fprintf(&b, "%s (%d bytes)\n", rel, size)
		}
		n++
		if d.IsDir() && !a.Recursive {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	if n == 0 {
		return Result{Content: "The folder is empty."}, nil
	}
	if more {
		fmt.Fprintf(&b, "… stopped after %d entries\n", maxListEntries)
	}
	return Result{Content: b.String()}, nil
}

// ReadFile reads a text file of the workspace.
type ReadFile struct{}

func (ReadFile) Name() string { return "read_file" }
func (ReadFile) Description() string {
	return fmt.Sprintf("Read a text file of the workspace (at most %d KiB).", MaxReadBytes>>10)
}
func (ReadFile) Risk() Risk { return RiskRead }
func (ReadFile) Schema() map[string]any {
	return Object(map[string]any{"path": str("File, relative to the workspace.")}, "path")
}

func (ReadFile) Run(_ context.Context, env Env, args json.RawMessage) (Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if err := decode(args, &a); err != nil {
		return errorResult("%v", err)
	}
	if err := needWorkspace(env); err != nil {
		return errorResult("%v", err)
	}
	b, err := env.Workspace.ReadFile(a.Path, MaxReadBytes)
	if err != nil {
		return errorResult("%v", err)
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return errorResult("%q is a binary file, not text", a.Path)
	}
	if len(b) == 0 {
		return Result{Content: "(the file is empty)"}, nil
	}
	return Result{Content: string(b)}, nil
}

// SearchText finds lines in the workspace's files.
type SearchText struct{}

func (SearchText) Name() string { return "search_text" }
func (SearchText) Description() string {
	return "Search the text files of the workspace for lines containing a string (or matching a regular expression). Returns file:line: text."
}
func (SearchText) Risk() Risk { return RiskRead }
func (SearchText) Schema() map[string]any {
	return Object(map[string]any{
		"pattern": str("What to look for."),
		"path":    str("Folder or file to search, relative to the workspace. Default: the workspace."),
		"regex":   boolean("Treat pattern as a Go regular expression."),
	}, "pattern")
}

func (SearchText) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var a struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
		Regex   bool   `json:"regex"`
	}
	if err := decode(args, &a); err != nil {
		return errorResult("%v", err)
	}
	if a.Pattern == "" {
		return errorResult("the pattern is empty")
	}
	if err := needWorkspace(env); err != nil {
		return errorResult("%v", err)
	}
	match := func(line string) bool { return strings.Contains(line, a.Pattern) }
	if a.Regex {
		re, err := regexp.Compile(a.Pattern)
		if err != nil {
			return errorResult("the pattern is not a valid regular expression: %v", err)
		}
		match = re.MatchString
	}
	fsys, start, err := env.Workspace.FS(a.Path)
	if err != nil {
		return errorResult("%v", err)
	}
	if fi, err := fs.Stat(fsys, start); err == nil && !fi.IsDir() {
		if err := notRegular(a.Path, fi); err != nil {
			return errorResult("%v", err)
		}
	}
	var b strings.Builder
	n, more, skipped := 0, false, false
	walkErr := fs.WalkDir(fsys, start, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return nil
		}
		if env.Workspace.isProtected(d) {
			skipped = true
			return fs.SkipDir
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil // named pipes, devices, sockets and symlinks are not searched
		}
		if fi, err := d.Info(); err != nil || fi.Size() > maxSearchFile {
			return nil
		}
		data, err := env.Workspace.readFile(p, p, maxSearchFile)
		if err != nil || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			return nil
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), maxSearchFile)
		for line := 1; sc.Scan(); line++ {
			if match(sc.Text()) {
				if n >= maxMatches {
					more = true
					return fs.SkipAll
				}
				fmt.Fprintf(&b, "%s:%d: %s\n", path.Clean(p), line, truncateLine(sc.Text()))
				n++
			}
		}
		return nil
	})
	if walkErr != nil && ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	if n == 0 {
		b.WriteString("No matches.")
		if skipped {
			b.WriteString("\n")
		}
	}
	if more {
		fmt.Fprintf(&b, "… stopped after %d matches\n", maxMatches)
	}
	if skipped {
		b.WriteString("(Errand's own data folder was not searched: it is off limits.)\n")
	}
	return Result{Content: b.String()}, nil
}

// specialKind names a file type that is neither a folder, a symlink nor a
// regular file.
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// truncateLine cuts a long line at a character boundary near 300 bytes.
func truncateLine(s string) string {
	if len(s) <= 300 {
		return s
	}
	cut := 300
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// WriteFile creates or replaces a file of the workspace.
type WriteFile struct{}

func (WriteFile) Name() string { return "write_file" }
func (WriteFile) Description() string {
	return "Create a file in the workspace, or replace its whole content. Folders are created as needed."
}
func (WriteFile) Risk() Risk { return RiskWrite }
func (WriteFile) Schema() map[string]any {
	return Object(map[string]any{
		"path":    str("File, relative to the workspace."),
		"content": str("The complete new content."),
	}, "path", "content")
}

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (WriteFile) plan(env Env, args json.RawMessage) (a writeArgs, old string, err error) {
	if err = decode(args, &a); err != nil {
		return
	}
	if err = needWorkspace(env); err != nil {
		return
	}
	old, err = currentText(env.Workspace, a.Path)
	return
}

// Preview is the diff the write would make.
func (t WriteFile) Preview(_ context.Context, env Env, args json.RawMessage) (string, error) {
	a, old, err := t.plan(env, args)
	if err != nil {
		return "", err
	}
	return Diff(a.Path, old, a.Content), nil
}

func (t WriteFile) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	a, old, err := t.plan(env, args)
	if err != nil {
		return errorResult("%v", err)
	}
	note, err := keptWrite(ctx, env, a.Path, func() error { return env.Workspace.WriteFile(a.Path, []byte(a.Content)) })
	if err != nil {
		return errorResult("%v", err)
	}
	return Result{Content: fmt.Sprintf("Wrote %d bytes to %s.\n%s%s", len(a.Content), a.Path, Diff(a.Path, old, a.Content), note)}, nil
}

// currentText is a file's text, or "" when it does not exist yet.
func currentText(w *Workspace, p string) (string, error) {
	b, err := w.ReadFile(p, MaxReadBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%q is a binary file; it cannot be edited as text", p)
	}
	return string(b), nil
}

// EditFile replaces one exact piece of text in a file.
type EditFile struct{}

func (EditFile) Name() string { return "edit_file" }
func (EditFile) Description() string {
	return "Replace one exact occurrence of old_text with new_text in a workspace file. old_text must appear exactly once; include enough context to make it unique."
}
func (EditFile) Risk() Risk { return RiskWrite }
func (EditFile) Schema() map[string]any {
	return Object(map[string]any{
		"path":     str("File, relative to the workspace."),
		"old_text": str("The exact text to replace."),
		"new_text": str("The text to put in its place."),
	}, "path", "old_text", "new_text")
}

func (EditFile) plan(env Env, args json.RawMessage) (p, old, next string, err error) {
	var a struct {
		Path    string `json:"path"`
		OldText string `json:"old_text"`
		NewText string `json:"new_text"`
	}
	if err = decode(args, &a); err != nil {
		return
	}
	if err = needWorkspace(env); err != nil {
		return
	}
	if a.OldText == "" {
		err = fmt.Errorf("old_text is empty; use write_file to create a file")
		return
	}
	b, err := env.Workspace.ReadFile(a.Path, MaxReadBytes)
	if err != nil {
		return
	}
	old = string(b)
	switch n := countOverlapping(old, a.OldText); n {
	case 0:
		err = fmt.Errorf("old_text was not found in %s", a.Path)
	case 1:
		next = strings.Replace(old, a.OldText, a.NewText, 1)
	default:
		err = fmt.Errorf("old_text appears %d times in %s; include more context so it appears once", n, a.Path)
	}
	return a.Path, old, next, err
}

// Preview is the diff the edit would make.
func (t EditFile) Preview(_ context.Context, env Env, args json.RawMessage) (string, error) {
	p, old, next, err := t.plan(env, args)
	if err != nil {
		return "", err
	}
	return Diff(p, old, next), nil
}

func (t EditFile) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	p, old, next, err := t.plan(env, args)
	if err != nil {
		return errorResult("%v", err)
	}
	note, err := keptWrite(ctx, env, p, func() error { return env.Workspace.WriteFile(p, []byte(next)) })
	if err != nil {
		return errorResult("%v", err)
	}
	return Result{Content: "Edited " + p + ".\n" + Diff(p, old, next) + note}, nil
}

// countOverlapping counts the places sub starts in s, overlapping ones too:
// an edit must be unambiguous.
func countOverlapping(s, sub string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return n
		}
		n++
		i += j + 1
	}
}

// Diff is a unified diff of a file's old and new text.
func Diff(name, old, next string) string {
	if old == next {
		return "(no change)"
	}
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: splitLines(old), B: splitLines(next),
		FromFile: "a/" + name, ToFile: "b/" + name, Context: 3,
	})
	if err != nil {
		return err.Error()
	}
	return d
}

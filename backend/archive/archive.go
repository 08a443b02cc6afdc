// Package archive takes conversations out of Errand and back in: a
// conversation as Markdown (to read) or JSON (complete, to import again),
// and every conversation with the settings as one backup file, restored
// into an empty data folder.
//
// An archive never holds an API key or other secret: keys live in the
// system keyring or a key file, never in the database an export reads.
//
// Importing gives everything new ids and stores it in one transaction:
// a file that is malformed, too large, or written by a newer Errand is
// refused with a clear error, and nothing of it is kept.
package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// The formats of an archive, and the version this Errand writes and the
// newest it reads.
const (
	FormatConversation = "errand.conversation"
	FormatBackup       = "errand.backup"
	// Version 2: a conversation's mode (auto, agent, chat) replaced its
	// agentMode switch; version 1 files are read with agentMode mapped.
	// Version 3: every version of each message, with its parent and its
	// place off the current branch (an older Errand would take them all
	// for one branch); a file without parents is one branch, in order.
	// Version 4: the files messages carry, their content in Files (an
	// older Errand would refuse the field as damage).
	// Version 5: a backup's saved prompts, in Prompts; a conversation's
	// state (active, completed, ended, with who ended it and why) and
	// whether it is archived.
	Version = 5
)

// MaxBytes is the largest archive Errand reads.
const MaxBytes = 256 << 20

// File is an archive as it is written in JSON.
type File struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt time.Time `json:"exportedAt"`
	// Conversations are whole, each with its messages, tasks, summaries
	// and facts.
	Conversations []chat.ConversationRecord `json:"conversations"`
	// Settings and Facts (the global ones) are in a backup only.
	Settings *chat.Settings `json:"settings,omitempty"`
	Facts    []chat.Fact    `json:"facts,omitempty"`
	// Prompts are the saved prompts, in a backup only.
	Prompts []chat.SavedPrompt `json:"prompts,omitempty"`
	// Files are the contents of the files the messages carry, by id
	// (base64 in JSON).
	Files map[string][]byte `json:"files,omitempty"`
}

// Store is what an archive reads from and writes to.
type Store interface {
	ConversationRecord(ctx context.Context, id string) (chat.ConversationRecord, error)
	ListConversations(ctx context.Context) ([]chat.ConversationSummary, error)
	Settings(ctx context.Context) (chat.Settings, error)
	Facts(ctx context.Context, conversationID string) ([]chat.Fact, error)
	Prompts(ctx context.Context) ([]chat.SavedPrompt, error)
	ImportConversations(ctx context.Context, recs []chat.ConversationRecord, extra chat.Restore) error
}

// Conversation is the archive of one conversation.
func Conversation(ctx context.Context, st Store, id string) (File, error) {
	r, err := st.ConversationRecord(ctx, id)
	if err != nil {
		return File{}, err
	}
	return File{Format: FormatConversation, Version: Version, ExportedAt: now(),
		Conversations: []chat.ConversationRecord{r}}, nil
}

// Backup is the archive of everything: every conversation, oldest
// activity first, the settings, the global facts and the saved prompts.
func Backup(ctx context.Context, st Store) (File, error) {
	list, err := st.ListConversations(ctx)
	if err != nil {
		return File{}, err
	}
	f := File{Format: FormatBackup, Version: Version, ExportedAt: now(), Conversations: []chat.ConversationRecord{}}
	for i := len(list) - 1; i >= 0; i-- {
		r, err := st.ConversationRecord(ctx, list[i].ID)
		if err != nil {
			return File{}, err
		}
		f.Conversations = append(f.Conversations, r)
	}
	settings, err := st.Settings(ctx)
	if err != nil {
		return File{}, err
	}
	f.Settings = &settings
	if f.Facts, err = st.Facts(ctx, ""); err != nil {
		return File{}, err
	}
	if f.Prompts, err = st.Prompts(ctx); err != nil {
		return File{}, err
	}
	return f, nil
}

func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// WriteJSON writes the archive as indented JSON.
func WriteJSON(w io.Writer, f File) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("write the archive: %w", err)
	}
	return nil
}

// Read reads an archive, refusing one larger than MaxBytes, one that is
// not an Errand archive, and one written by a newer Errand.
func Read(r io.Reader) (File, error) { return readUpTo(r, MaxBytes) }

func readUpTo(r io.Reader, limit int) (File, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err != nil {
		return File{}, chat.Wrap(chat.CodeInvalid, err, "the file cannot be read: %v", err)
	}
	if len(b) > limit {
		return File{}, chat.Errorf(chat.CodeInvalid, "the file is larger than %d MB, more than Errand imports", limit>>20)
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil || (head.Format != FormatConversation && head.Format != FormatBackup) {
		return File{}, chat.Errorf(chat.CodeInvalid, "this is not a conversation or backup exported by Errand")
	}
	if head.Version > Version {
		return File{}, chat.Errorf(chat.CodeInvalid,
			"this file was written by a newer version of Errand (format version %d; this one reads up to %d): update Errand to import it", head.Version, Version)
	}
	if head.Version < 1 {
		return File{}, chat.Errorf(chat.CodeInvalid, "this file has no valid format version")
	}
	if head.Version == 1 {
		if b, err = fromVersion1(b); err != nil {
			return File{}, chat.Wrap(chat.CodeInvalid, err, "the file is damaged: %s", describe(err))
		}
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return File{}, chat.Wrap(chat.CodeInvalid, err, "the file is damaged: %s", describe(err))
	}
	for _, r := range f.Conversations {
		if _, err := chat.ParseMode(string(r.Conversation.Mode)); err != nil {
			return File{}, chat.Errorf(chat.CodeInvalid, "the file is damaged: a conversation has the unknown mode %s", chat.Quote(string(r.Conversation.Mode)))
		}
		if err := checkState(r.Conversation); err != nil {
			return File{}, chat.Wrap(chat.CodeInvalid, err, "the file is damaged: %s", chat.ErrorMessage(err))
		}
	}
	return f, nil
}

// fromVersion1 rewrites a version 1 file's conversations: agentMode
// true is the mode agent, false chat.
func fromVersion1(b []byte) ([]byte, error) {
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	var convs []map[string]json.RawMessage
	if raw, ok := f["conversations"]; ok {
		if err := json.Unmarshal(raw, &convs); err != nil {
			return nil, err
		}
	}
	for i, rec := range convs {
		if rec == nil {
			return nil, fmt.Errorf("conversation %d is null", i+1)
		}
		var c map[string]json.RawMessage
		if err := json.Unmarshal(rec["conversation"], &c); err != nil || c == nil {
			return nil, fmt.Errorf("conversation %d has no conversation object", i+1)
		}
		var on bool
		if raw, ok := c["agentMode"]; ok {
			if err := json.Unmarshal(raw, &on); err != nil {
				return nil, err
			}
		}
		delete(c, "agentMode")
		mode := chat.ModeChat
		if on {
			mode = chat.ModeAgent
		}
		c["mode"], _ = json.Marshal(mode)
		rec["conversation"], _ = json.Marshal(c)
	}
	if convs != nil {
		f["conversations"], _ = json.Marshal(convs)
	}
	return json.Marshal(f)
}

func describe(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("broken JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s holds a %s where a %s belongs", typ.Field, typ.Value, typ.Type)
	}
	return err.Error()
}

// Import stores the archive's conversations as new ones, with new ids,
// in one transaction, and returns them. A conversation archive and a
// backup are both accepted: a backup's saved prompts are added (but for
// one whose name a prompt here has), its settings and facts left alone.
func Import(ctx context.Context, st Store, f File) ([]chat.Conversation, error) {
	recs, err := fresh(f.Conversations)
	if err != nil {
		return nil, err
	}
	prompts, err := freshPrompts(f.Prompts)
	if err != nil {
		return nil, err
	}
	if err := st.ImportConversations(ctx, recs, chat.Restore{Prompts: prompts}); err != nil {
		return nil, err
	}
	out := make([]chat.Conversation, len(recs))
	for i, r := range recs {
		out[i] = r.Conversation
	}
	return out, nil
}

// Restore stores a backup whole — conversations, settings, global facts,
// saved prompts — into st, which should be empty, in one transaction.
func Restore(ctx context.Context, st Store, f File) error {
	if f.Format != FormatBackup {
		return chat.Errorf(chat.CodeInvalid, "this is one conversation, not a backup: import it instead")
	}
	recs, err := fresh(f.Conversations)
	if err != nil {
		return err
	}
	if f.Settings != nil {
		if err := chat.CheckSettings(*f.Settings); err != nil {
			return err
		}
		for risk := range f.Settings.AutoApprove {
			if _, ok := riskWords[risk]; !ok {
				return chat.Errorf(chat.CodeInvalid, "the backup's settings approve the unknown risk %s", chat.Quote(risk))
			}
		}
	}
	facts := make([]chat.Fact, 0, len(f.Facts))
	for _, fact := range f.Facts {
		fact, err := cleanFact(fact, "")
		if err != nil {
			return err
		}
		facts = append(facts, fact)
	}
	prompts, err := freshPrompts(f.Prompts)
	if err != nil {
		return err
	}
	return st.ImportConversations(ctx, recs, chat.Restore{Settings: f.Settings, Facts: facts, Prompts: prompts})
}

// Widening lists what a backup's settings would let run without asking,
// or instruct, beyond what a new installation does: tool risks approved
// without asking, and the agent's own instructions. A restore asks before
// it puts these back (see Narrowed).
func Widening(f File) []string {
	if f.Settings == nil {
		return nil
	}
	var out []string
	defaults := chat.DefaultSettings().AutoApprove
	for _, risk := range []string{"read_only", "writes", "destructive"} {
		if f.Settings.AutoApprove[risk] && !defaults[risk] {
			out = append(out, fmt.Sprintf("run tools that are %s without asking", riskWords[risk]))
		}
	}
	if p := f.Settings.SystemPrompt; p != "" {
		out = append(out, fmt.Sprintf("replace the agent's instructions with its own (%d characters, beginning %s)",
			len([]rune(p)), strconv.Quote(preview(p, 200))))
	}
	return out
}

var riskWords = map[string]string{"read_only": "read-only", "writes": "writes", "destructive": "destructive"}

// Narrowed is the backup with its approvals and instructions those of a
// new installation: what a restore keeps when the person does not choose
// to put them back.
func Narrowed(f File) File {
	if f.Settings == nil {
		return f
	}
	s := *f.Settings
	s.AutoApprove = chat.DefaultSettings().AutoApprove
	s.SystemPrompt = ""
	f.Settings = &s
	return f
}

// preview is the first n characters of s on one line.
func preview(s string, n int) string {
	r := []rune(strings.Join(strings.Fields(s), " "))
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return string(r)
}

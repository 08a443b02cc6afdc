package app

import (
	"bytes"
	"encoding/json"
	"io"

	"os"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// AgentFileFormat marks an exported agent file.
const AgentFileFormat = "errand-agent/1"

// maxAgentFile bounds an agent file: a definition is at most a little
// over 200 KB (instructions and opening).
const maxAgentFile = 1 << 20

// AgentFile is an exported agent definition.
type AgentFile struct {
	Format string               `json:"format"`
	Agent  chat.AgentDefinition `json:"agent"`
}

// Agents is the bound service for agent definitions: the built-in ones and
// the person's own, which are created, edited, deleted, duplicated,
// exported and imported here.
type Agents struct {
	store   *store.Store
	runner  *agent.Runner
	events  *bridge
	dialogs *windowContext
}

// ListAgents returns the built-in agents, then the person's by name.
func (s *Agents) ListAgents() (_ []chat.AgentDefinition, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.ListAgents(ctx)
}

// ToolNames lists the built-in tools an agent can be given.
func (s *Agents) ToolNames() []string { return s.runner.ToolNames() }

// clean trims what a person typed and checks the definition.
func (s *Agents) clean(d chat.AgentDefinition) (chat.AgentDefinition, error) {
	d.ID = strings.TrimSpace(d.ID)
	d.Name = strings.TrimSpace(d.Name)
	d.Description = strings.TrimSpace(d.Description)
	d.Model = strings.TrimSpace(d.Model)
	if d.Tools == nil {
		d.Tools = []string{}
	}
	return d, chat.CheckAgent(d, s.runner.HasTool)
}

// CreateAgent stores a new agent. An empty name, a bad or taken id,
// unknown tools or instructions over 100 KB are refused and nothing is
// saved.
func (s *Agents) CreateAgent(d chat.AgentDefinition) (_ chat.AgentDefinition, err error) {
	defer recovered(&err)
	d, err = s.clean(d)
	if err != nil {
		return d, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.CreateAgent(ctx, d)
}

// UpdateAgent saves the person's changes to one of their agents; it applies
// from the next task on.
func (s *Agents) UpdateAgent(d chat.AgentDefinition) (_ chat.AgentDefinition, err error) {
	defer recovered(&err)
	d, err = s.clean(d)
	if err != nil {
		return d, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.UpdateAgent(ctx, d)
}

// DeleteAgent deletes one of the person's agents; its conversations fall
// back to Errand, each with a notice.
func (s *Agents) DeleteAgent(id string) (err error) {
	defer recovered(&err)
	if err := requireID("agent", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	convs, notices, err := s.store.DeleteAgent(ctx, id)
	if err != nil {
		return err
	}
	for _, m := range notices {
		s.events.MessageStored(m)
	}
	for _, c := range convs {
		s.events.ConversationUpdated(c)
	}
	return nil
}

// DuplicateAgent stores a copy of an agent (a built-in one too) under a
// new id, named "… (copy)", for the person to change.
func (s *Agents) DuplicateAgent(id string) (_ chat.AgentDefinition, err error) {
	defer recovered(&err)
	if err := requireID("agent", id); err != nil {
		return chat.AgentDefinition{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	d, err := s.store.Agent(ctx, id)
	if err != nil {
		return d, err
	}
	d.ID = copyID(d.ID)
	d.Name = strings.TrimSpace(truncateRunes(d.Name, chat.MaxAgentNameLen-7)) + " (copy)"
	d.BuiltIn = false
	if d.AllTools {
		d.AllTools, d.Tools = false, s.runner.ToolNames()
	}
	return s.store.CreateAgent(ctx, d)
}

func copyID(id string) string {
	suffix := "-" + uuid.NewString()[:6]
	if len(id)+len(suffix) > chat.MaxAgentIDLen {
		id = strings.TrimRight(id[:chat.MaxAgentIDLen-len(suffix)], "-")
	}
	return id + suffix
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// ExportAgent returns an agent as the JSON text of an agent file.
func (s *Agents) ExportAgent(id string) (_ string, err error) {
	defer recovered(&err)
	if err := requireID("agent", id); err != nil {
		return "", err
	}
	ctx, cancel := callCtx()
	defer cancel()
	d, err := s.store.Agent(ctx, id)
	if err != nil {
		return "", err
	}
	d.BuiltIn = false
	d.CreatedAt, d.UpdatedAt = time.Time{}, time.Time{}
	b, err := json.MarshalIndent(AgentFile{Format: AgentFileFormat, Agent: d}, "", "  ")
	return string(b), err
}

// ImportAgent stores the agent of an agent file's JSON text. A file that
// is not one, or whose agent would be refused by CreateAgent, saves
// nothing and says why.
func (s *Agents) ImportAgent(text string) (_ chat.AgentDefinition, err error) {
	defer recovered(&err)
	if len(text) > maxAgentFile {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeInvalid, "this is not an agent file: it is larger than 1 MB")
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	f := AgentFile{Agent: chat.AgentDefaults()}
	if err := dec.Decode(&f); err != nil {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeInvalid, "this is not an agent file: %s", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeInvalid, "this is not an agent file: there is more after the agent")
	}
	if f.Format != AgentFileFormat {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeInvalid, "this is not an agent file (its format is %s, not %q)", chat.Quote(f.Format), AgentFileFormat)
	}
	return s.CreateAgent(f.Agent)
}

// ExportAgentFile writes an agent file where the person chooses in the
// native save dialog; it returns the path, or "" when they cancelled.
func (s *Agents) ExportAgentFile(id string) (_ string, err error) {
	defer recovered(&err)
	text, err := s.ExportAgent(id)
	if err != nil {
		return "", err
	}
	win := s.dialogs.get()
	if win == nil {
		return "", chat.Errorf(chat.CodeConflict, "the window is not ready")
	}
	path, err := runtime.SaveFileDialog(win, runtime.SaveDialogOptions{
		Title: "Export agent", DefaultFilename: id + ".agent.json",
		Filters: []runtime.FileFilter{{DisplayName: "Agent files (*.json)", Pattern: "*.json"}},
	})
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
		return "", chat.Wrap(chat.CodeInvalid, err, "could not write %s", chat.Quote(path))
	}
	return path, nil
}

// ImportAgentFile imports the agent file the person chooses in the native
// open dialog; cancelling returns a zero definition.
func (s *Agents) ImportAgentFile() (_ chat.AgentDefinition, err error) {
	defer recovered(&err)
	win := s.dialogs.get()
	if win == nil {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeConflict, "the window is not ready")
	}
	path, err := runtime.OpenFileDialog(win, runtime.OpenDialogOptions{
		Title:   "Import agent",
		Filters: []runtime.FileFilter{{DisplayName: "Agent files (*.json)", Pattern: "*.json"}},
	})
	if err != nil || path == "" {
		return chat.AgentDefinition{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return chat.AgentDefinition{}, chat.Wrap(chat.CodeInvalid, err, "could not read %s", chat.Quote(path))
	}
	if fi.Size() > maxAgentFile {
		return chat.AgentDefinition{}, chat.Errorf(chat.CodeInvalid, "this is not an agent file: it is larger than 1 MB")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return chat.AgentDefinition{}, chat.Wrap(chat.CodeInvalid, err, "could not read %s", chat.Quote(path))
	}
	return s.ImportAgent(string(b))
}

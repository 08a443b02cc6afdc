package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// variationTimeout bounds the models' work on a set of variations.
const variationTimeout = 5 * time.Minute

// ShowVersion shows another version of the message messageID (step -1 the
// previous, +1 the next) and returns the conversation reopened on the
// branch through it, with its latest limit messages. Refused while a task
// runs in the conversation.
func (s *Conversations) ShowVersion(conversationID, messageID string, step, limit int) (_ chat.ConversationView, err error) {
	defer recovered(&err)
	if err := requireIDs(conversationID, messageID); err != nil {
		return chat.ConversationView{}, err
	}
	if step != -1 && step != 1 {
		return chat.ConversationView{}, chat.Errorf(chat.CodeInvalid, "a version step is -1 or 1, not %d", step)
	}
	ctx, cancel := callCtx()
	defer cancel()
	if _, err := s.store.ShowVersion(ctx, conversationID, messageID, step); err != nil {
		return chat.ConversationView{}, err
	}
	return s.store.OpenConversation(ctx, conversationID, limit)
}

// SwitchBranch makes the branch through the message messageID current
// ("Keep this one" on a variation) and returns the conversation reopened
// there, with its latest limit messages.
func (s *Conversations) SwitchBranch(conversationID, messageID string, limit int) (_ chat.ConversationView, err error) {
	defer recovered(&err)
	if err := requireIDs(conversationID, messageID); err != nil {
		return chat.ConversationView{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if err := s.store.SwitchBranch(ctx, conversationID, messageID); err != nil {
		return chat.ConversationView{}, err
	}
	return s.store.OpenConversation(ctx, conversationID, limit)
}

// Variations writes req.Count (1 to 5) more replies in place of the reply
// messageID, in parallel, on the models named at each place ("" for the
// conversation's), each taking its own approach; each one's text reaches
// the window as it is written (EventVariation). They are versions kept off
// the branch until one is kept with SwitchBranch; what they used is added
// to the conversation's totals. StopVariations stops them.
func (s *Conversations) Variations(conversationID, messageID string, req agent.VariationsRequest) (_ []agent.Variation, err error) {
	defer recovered(&err)
	if err := requireIDs(conversationID, messageID); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), variationTimeout)
	defer cancel()
	return s.runner.Variations(ctx, conversationID, messageID, req, func(v agent.Variation) { s.events.emit(EventVariation, v) })
}

// StopVariations stops the variations being written in the conversation,
// keeping what each had written; it reports whether any were.
func (s *Conversations) StopVariations(conversationID string) (_ bool, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return false, err
	}
	return s.runner.StopVariations(conversationID), nil
}

// DeleteBranch deletes the version messageID and everything after it, and
// returns the conversation reopened with its latest limit messages. The
// version shown gives way to its neighbour; the only version of a message
// is refused, as is any deletion while a task runs.
func (s *Conversations) DeleteBranch(conversationID, messageID string, limit int) (_ chat.ConversationView, err error) {
	defer recovered(&err)
	if err := requireIDs(conversationID, messageID); err != nil {
		return chat.ConversationView{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if err := s.store.DeleteBranch(ctx, conversationID, messageID); err != nil {
		return chat.ConversationView{}, err
	}
	return s.store.OpenConversation(ctx, conversationID, limit)
}

// BranchIntoConversation copies the conversation's history up to the
// message messageID into a new conversation with the same agent, model and
// settings. Its workspace folder is the same folder (shared), or, when
// copyWorkspace is set, a copy of it.
func (s *Conversations) BranchIntoConversation(conversationID, messageID string, copyWorkspace bool) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireIDs(conversationID, messageID); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	src, err := s.store.GetConversation(ctx, conversationID)
	if err != nil {
		return chat.Conversation{}, err
	}
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Title: branchTitle(src.Title), TitleSet: src.TitleSet,
		Mode: src.Mode, Model: src.Model, AgentID: src.AgentID, CreatedAt: now, UpdatedAt: now}
	if !copyWorkspace {
		c.Workspace = workspaceDir(s.workspaces, src)
	}
	if _, err := s.store.CopyBranch(ctx, conversationID, messageID, c); err != nil {
		return chat.Conversation{}, err
	}
	if copyWorkspace {
		if err := copyDir(workspaceDir(s.workspaces, src), workspaceDir(s.workspaces, c)); err != nil {
			return c, chat.Errorf(chat.CodeInvalid, "the conversation was branched, but its workspace folder could not be copied: %v", err)
		}
	}
	return s.store.GetConversation(ctx, c.ID)
}

// branchTitle names a branched conversation after the one it came from.
func branchTitle(title string) string {
	if title == "" {
		return ""
	}
	r := []rune("Branch of " + title)
	if len(r) > 120 {
		r = r[:120]
	}
	return string(r)
}

func requireIDs(conversationID, messageID string) error {
	if err := requireID("conversation", conversationID); err != nil {
		return err
	}
	return requireID("message", messageID)
}

// copyDir copies the folder from (its files, folders and links) to a new
// folder to. A from that does not exist copies nothing.
func copyDir(from, to string) error {
	if _, err := os.Stat(from); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case d.Type().IsRegular():
			return copyFile(path, dst)
		}
		return nil // sockets, devices: not a workspace's files
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", filepath.Base(from), err)
	}
	return out.Close()
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

const factCols = `id, ifnull(conversation_id, ''), key, value, created_at, updated_at`

func scanFact(row rowScanner) (chat.Fact, error) {
	var f chat.Fact
	var created, updated int64
	err := row.Scan(&f.ID, &f.ConversationID, &f.Key, &f.Value, &created, &updated)
	f.Scope = chat.ScopeGlobal
	if f.ConversationID != "" {
		f.Scope = chat.ScopeConversation
	}
	f.CreatedAt, f.UpdatedAt = fromMS(created), fromMS(updated)
	return f, err
}

// owner is a fact's conversation as the facts table keeps it: NULL for a
// global fact.
func owner(conversationID string) any {
	if conversationID == "" {
		return nil
	}
	return conversationID
}

// Facts returns the facts the agent sees in a conversation: that
// conversation's first, then the global ones, each most recently updated
// first. An empty conversationID gives the global facts alone.
// They are read from the database once, and again after a fact changed.
func (s *Store) Facts(ctx context.Context, conversationID string) ([]chat.Fact, error) {
	facts, gen, ok, shared := s.facts.get(conversationID)
	if ok {
		return facts, nil
	}
	if !shared {
		sh, err := readSharedFacts(ctx, s.db)
		if err != nil {
			return nil, err
		}
		s.facts.putShared(gen, sh)
		if !sh.owners[conversationID] {
			return slices.Clone(sh.global), nil
		}
	}
	facts, err := factsWhere(ctx, s.db, `WHERE ifnull(conversation_id, '') IN ('', ?)
		ORDER BY conversation_id IS NULL, updated_at DESC, rowid DESC`, conversationID)
	if err == nil {
		s.facts.put(gen, conversationID, facts)
	}
	return facts, err
}

// readSharedFacts reads the global facts, in the order Facts gives them,
// and the conversations that have facts of their own.
func readSharedFacts(ctx context.Context, q queryer) (*sharedFacts, error) {
	global, err := factsWhere(ctx, q, `WHERE ifnull(conversation_id, '') = ''
		ORDER BY conversation_id IS NULL, updated_at DESC, rowid DESC`)
	if err != nil {
		return nil, err
	}
	owners, err := collect(ctx, q, "list facts", func(row rowScanner) (string, error) {
		var id string
		return id, row.Scan(&id)
	}, `SELECT DISTINCT ifnull(conversation_id, '') FROM facts WHERE ifnull(conversation_id, '') <> ''`)
	if err != nil {
		return nil, err
	}
	sh := &sharedFacts{global: global, owners: make(map[string]bool, len(owners))}
	for _, id := range owners {
		sh.owners[id] = true
	}
	return sh, nil
}

// AllFacts returns every fact — the global ones first, then each
// conversation's, the most recently active conversation first, each
// owner's most recently updated first — and the titles of their
// conversations, by id ("" for one without a title yet).
func (s *Store) AllFacts(ctx context.Context) ([]chat.Fact, map[string]string, error) {
	titles := map[string]string{}
	facts, err := collect(ctx, s.db, "list facts", func(row rowScanner) (chat.Fact, error) {
		var title string
		f, err := scanFact(titledFact{row, &title})
		if f.ConversationID != "" {
			titles[f.ConversationID] = title
		}
		return f, err
	}, `SELECT f.id, ifnull(f.conversation_id, ''), f.key, f.value, f.created_at, f.updated_at, ifnull(c.title, '')
		FROM facts f LEFT JOIN conversations c ON c.id = f.conversation_id
		ORDER BY f.conversation_id IS NOT NULL, c.updated_at DESC, f.conversation_id, f.updated_at DESC, f.rowid DESC`)
	return facts, titles, err
}

// titledFact reads a fact's row followed by its conversation's title.
type titledFact struct {
	row   rowScanner
	title *string
}

func (t titledFact) Scan(dest ...any) error { return t.row.Scan(append(dest, t.title)...) }

func factsWhere(ctx context.Context, q queryer, where string, args ...any) ([]chat.Fact, error) {
	return collect(ctx, q, "list facts", scanFact, `SELECT `+factCols+` FROM facts `+where, args...)
}

// GetFact returns one fact or a CodeNotFound error.
func (s *Store) GetFact(ctx context.Context, id string) (chat.Fact, error) {
	return getFact(ctx, s.db, id)
}

func getFact(ctx context.Context, q queryer, id string) (chat.Fact, error) {
	f, err := scanFact(q.QueryRowContext(ctx, `SELECT `+factCols+` FROM facts WHERE id = ?`, id))
	if isNoRows(err) {
		return f, notFound("fact", id)
	}
	if err != nil {
		return f, fmt.Errorf("get fact: %w", err)
	}
	return f, nil
}

// factByKey finds the fact of one owner with key, if there is one.
func factByKey(ctx context.Context, q queryer, conversationID, key string) (chat.Fact, bool, error) {
	f, err := scanFact(q.QueryRowContext(ctx, `SELECT `+factCols+` FROM facts
		WHERE ifnull(conversation_id, '') = ? AND key = ?`, conversationID, key))
	if isNoRows(err) {
		return f, false, nil
	}
	if err != nil {
		return f, false, fmt.Errorf("find fact: %w", err)
	}
	return f, true, nil
}

// checkRoom refuses a new fact for an owner that holds the most it may,
// and a conversation fact for a conversation that does not exist.
func checkRoom(ctx context.Context, q queryer, conversationID string) error {
	if conversationID != "" {
		if _, err := getConversation(ctx, q, conversationID); err != nil {
			return err
		}
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM facts WHERE ifnull(conversation_id, '') = ?`, conversationID).Scan(&n); err != nil {
		return fmt.Errorf("count facts: %w", err)
	}
	if n >= chat.MaxFactsPerOwner {
		where := "this conversation"
		if conversationID == "" {
			where = "the global facts"
		}
		return chat.Errorf(chat.CodeInvalid,
			"%s already hold %d facts, the most Errand keeps; forget or delete one first", where, chat.MaxFactsPerOwner)
	}
	return nil
}

// RememberFact stores a fact (see chat.CleanFact for what is refused).
// Remembering a key its owner already has updates that fact's value.
func (s *Store) RememberFact(ctx context.Context, f chat.Fact) (chat.Fact, error) {
	return s.putFact(ctx, f, true)
}

// AddFact stores a new fact; a key its owner already has is refused
// (CodeConflict), so that adding never overwrites a fact unseen.
func (s *Store) AddFact(ctx context.Context, f chat.Fact) (chat.Fact, error) {
	return s.putFact(ctx, f, false)
}

func (s *Store) putFact(ctx context.Context, f chat.Fact, replace bool) (chat.Fact, error) {
	defer s.facts.changed()
	f, err := chat.CleanFact(f)
	if err != nil {
		return f, err
	}
	now := time.Now().UTC()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		old, found, err := factByKey(ctx, tx, f.ConversationID, f.Key)
		if err != nil {
			return err
		}
		if found && !replace {
			return &chat.Error{Code: chat.CodeConflict, Field: "key",
				Message: fmt.Sprintf("There is already a fact %s here; edit that one, or choose another key.", chat.Quote(f.Key))}
		}
		if found {
			f.ID, f.CreatedAt, f.UpdatedAt = old.ID, old.CreatedAt, now
			_, err = tx.ExecContext(ctx, `UPDATE facts SET value = ?, updated_at = ? WHERE id = ?`, f.Value, ms(now), f.ID)
			return err
		}
		if err := checkRoom(ctx, tx, f.ConversationID); err != nil {
			return err
		}
		f.ID, f.CreatedAt, f.UpdatedAt = uuid.NewString(), now, now
		_, err = tx.ExecContext(ctx, `INSERT INTO facts (id, conversation_id, key, value, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)`, f.ID, owner(f.ConversationID), f.Key, f.Value, ms(now), ms(now))
		return err
	})
	if err != nil {
		return chat.Fact{}, wrapOp("remember the fact", err)
	}
	return fromMSRound(f), nil
}

// UpdateFact changes the key, value or scope of the fact with f.ID. A key
// that another fact of the same owner has is refused (CodeConflict).
func (s *Store) UpdateFact(ctx context.Context, f chat.Fact) (chat.Fact, error) {
	defer s.facts.changed()
	if err := chat.CheckID("fact", f.ID); err != nil {
		return f, err
	}
	f, err := chat.CleanFact(f)
	if err != nil {
		return f, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		old, err := getFact(ctx, tx, f.ID)
		if err != nil {
			return err
		}
		other, found, err := factByKey(ctx, tx, f.ConversationID, f.Key)
		if err != nil {
			return err
		}
		if found && other.ID != f.ID {
			return &chat.Error{Code: chat.CodeConflict, Field: "key",
				Message: fmt.Sprintf("There is already a fact %s here; edit that one, or choose another key.", chat.Quote(f.Key))}
		}
		if old.ConversationID != f.ConversationID {
			if err := checkRoom(ctx, tx, f.ConversationID); err != nil {
				return err
			}
		}
		f.CreatedAt, f.UpdatedAt = old.CreatedAt, time.Now().UTC()
		_, err = tx.ExecContext(ctx, `UPDATE facts SET conversation_id = ?, key = ?, value = ?, updated_at = ? WHERE id = ?`,
			owner(f.ConversationID), f.Key, f.Value, ms(f.UpdatedAt), f.ID)
		return err
	})
	if err != nil {
		return chat.Fact{}, wrapOp("edit the fact", err)
	}
	return fromMSRound(f), nil
}

// DeleteFact deletes the fact with id and returns what it was.
func (s *Store) DeleteFact(ctx context.Context, id string) (chat.Fact, error) {
	defer s.facts.changed()
	var f chat.Fact
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if f, err = getFact(ctx, tx, id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM facts WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return chat.Fact{}, wrapOp("delete the fact", err)
	}
	return f, nil
}

// ForgetFact deletes the fact with key that the agent sees in a
// conversation: the conversation's own if it has one, else the global
// one. A key neither has is a CodeNotFound error.
func (s *Store) ForgetFact(ctx context.Context, conversationID, key string) (chat.Fact, error) {
	defer s.facts.changed()
	var f chat.Fact
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var found bool
		var err error
		for _, owner := range []string{conversationID, ""} {
			if f, found, err = factByKey(ctx, tx, owner, key); err != nil || found {
				break
			}
		}
		if err != nil {
			return err
		}
		if !found {
			return chat.Errorf(chat.CodeNotFound, "no fact has the key %s", chat.Quote(key))
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM facts WHERE id = ?`, f.ID)
		return err
	})
	if err != nil {
		return chat.Fact{}, wrapOp("forget the fact", err)
	}
	return f, nil
}

// fromMSRound gives a fact's times as they read back from the database.
func fromMSRound(f chat.Fact) chat.Fact {
	f.CreatedAt, f.UpdatedAt = fromMS(ms(f.CreatedAt)), fromMS(ms(f.UpdatedAt))
	return f
}

// wrapOp keeps nil and a told error as they are and names the
// operation of any other.
func wrapOp(op string, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*chat.Error); ok {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}

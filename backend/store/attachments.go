package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// StageAttachment records a content added in the composer (see
// migration 0027); adding it again renames and re-dates it.
func (s *Store) StageAttachment(ctx context.Context, a chat.Attachment, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO attachments (id, kind, mime, size, width, height, name, staged_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, staged_at = excluded.staged_at`,
		a.ID, string(a.Kind), a.Mime, a.Size, a.Width, a.Height, a.Name, ms(at))
	if err != nil {
		return fmt.Errorf("record attachment: %w", err)
	}
	return nil
}

const attachmentCols = `id, kind, mime, size, width, height, name`

func scanAttachment(row rowScanner) (chat.Attachment, error) {
	var a chat.Attachment
	err := row.Scan(&a.ID, &a.Kind, &a.Mime, &a.Size, &a.Width, &a.Height, &a.Name)
	return a, err
}

// StagedAttachments returns the records of ids that exist, under the
// name each was last added with.
func (s *Store) StagedAttachments(ctx context.Context, ids []string) ([]chat.Attachment, error) {
	list, _ := json.Marshal(ids)
	return collect(ctx, s.db, "attachments", scanAttachment,
		`SELECT `+attachmentCols+` FROM attachments WHERE id IN (SELECT value FROM json_each(?))`, string(list))
}

// AttachmentIDs returns the id of every recorded content.
func (s *Store) AttachmentIDs(ctx context.Context) (map[string]bool, error) {
	ids, err := collect(ctx, s.db, "attachments", func(r rowScanner) (string, error) {
		var id string
		return id, r.Scan(&id)
	}, `SELECT id FROM attachments`)
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, err
}

// SweepStagedAttachments forgets the contents no message carries that
// were last added before before, and the images tools returned before
// then that no message names (a task that ended before its result did).
func (s *Store) SweepStagedAttachments(ctx context.Context, before time.Time) error {
	_, err := s.exec(ctx, `DELETE FROM attachments WHERE staged_at < ?
		AND NOT EXISTS (SELECT 1 FROM message_attachments m WHERE m.attachment_id = attachments.id)`, ms(before))
	if err != nil {
		return fmt.Errorf("sweep attachments: %w", err)
	}
	_, err = s.exec(ctx, `DELETE FROM tool_images WHERE created_at < ?
		AND NOT EXISTS (SELECT 1 FROM tool_image_refs r WHERE r.image_id = tool_images.id)`, ms(before))
	if err != nil {
		return fmt.Errorf("sweep tool images: %w", err)
	}
	return nil
}

// restage records again the contents of atts that are no longer recorded
// (as read with a message, under its names), staged now.
func restage(ctx context.Context, q queryer, atts []chat.Attachment) error {
	for _, a := range atts {
		if _, err := q.ExecContext(ctx, `INSERT INTO attachments (id, kind, mime, size, width, height, name, staged_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
			a.ID, string(a.Kind), a.Mime, a.Size, a.Width, a.Height, a.Name, ms(time.Now())); err != nil {
			return fmt.Errorf("record attachment: %w", err)
		}
	}
	return nil
}

// insertAttachments records that message id carries atts, in order.
// Each content must have been staged (or restored) first.
func insertAttachments(ctx context.Context, q queryer, id string, atts []chat.Attachment) error {
	for i, a := range atts {
		if _, err := q.ExecContext(ctx, `INSERT INTO message_attachments (message_id, ord, attachment_id, name)
			VALUES (?, ?, ?, ?)`, id, i, a.ID, a.Name); err != nil {
			if strings.Contains(err.Error(), "FOREIGN KEY") {
				return chat.Errorf(chat.CodeNotFound, "An attached file is no longer kept; attach it again.")
			}
			return fmt.Errorf("attach file: %w", err)
		}
	}
	return nil
}

// withAttachments fills in the attachments of the user messages in msgs.
func withAttachments(ctx context.Context, q queryer, msgs []chat.Message) error {
	at := map[string]int{}
	for i, m := range msgs {
		if m.Role == chat.RoleUser {
			at[m.ID] = i
		}
	}
	if len(at) == 0 {
		return nil
	}
	ids := make([]string, 0, len(at))
	for id := range at {
		ids = append(ids, id)
	}
	list, _ := json.Marshal(ids)
	rows, err := q.QueryContext(ctx, `SELECT m.message_id, a.id, a.kind, a.mime, a.size, a.width, a.height, m.name
		FROM message_attachments m JOIN attachments a ON a.id = m.attachment_id
		WHERE m.message_id IN (SELECT value FROM json_each(?)) ORDER BY m.message_id, m.ord`, string(list))
	if err != nil {
		return fmt.Errorf("read attachments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var msgID string
		var a chat.Attachment
		if err := rows.Scan(&msgID, &a.ID, &a.Kind, &a.Mime, &a.Size, &a.Width, &a.Height, &a.Name); err != nil {
			return fmt.Errorf("read attachments: %w", err)
		}
		m := &msgs[at[msgID]]
		m.Attachments = append(m.Attachments, a)
	}
	return rows.Err()
}

// RestoreAttachment records a content brought back by an import, as if
// it had just been added; the file must be in place first.
func (s *Store) RestoreAttachment(ctx context.Context, a chat.Attachment) error {
	return s.StageAttachment(ctx, a, time.Now())
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// MCPServers returns the configured MCP servers, in the order they were added.
func (s *Store) MCPServers(ctx context.Context) ([]chat.MCPServer, error) {
	return collect(ctx, s.db, "list MCP servers", scanMCPServer,
		`SELECT config, created_at, updated_at FROM mcp_servers ORDER BY created_at, rowid`)
}

// MCPServer returns one server or a CodeNotFound error.
func (s *Store) MCPServer(ctx context.Context, id string) (chat.MCPServer, error) {
	return mcpServerByID(ctx, s.db, id)
}

func mcpServerByID(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (chat.MCPServer, error) {
	m, err := scanMCPServer(q.QueryRowContext(ctx, `SELECT config, created_at, updated_at FROM mcp_servers WHERE id = ?`, id))
	if isNoRows(err) {
		return m, chat.Errorf(chat.CodeNotFound, "no MCP server has the id %s", chat.Quote(id))
	}
	return m, err
}

func scanMCPServer(row rowScanner) (chat.MCPServer, error) {
	var raw string
	var created, updated int64
	var m chat.MCPServer
	if err := row.Scan(&raw, &created, &updated); err != nil {
		return m, err
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return m, err
	}
	m.CreatedAt, m.UpdatedAt = fromMS(created), fromMS(updated)
	return m, nil
}

// SaveMCPServers adds or replaces the servers, all or none: a server with
// an id that exists is replaced, one without an id is added. A name that
// another server has (whatever the case) is refused. The environment is
// never stored here (it often holds tokens): the caller keeps it with the
// other secrets, and the servers returned have none.
func (s *Store) SaveMCPServers(ctx context.Context, servers []chat.MCPServer) ([]chat.MCPServer, error) {
	out := make([]chat.MCPServer, 0, len(servers))
	now := time.Now().UTC()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, m := range servers {
			m, err := chat.CleanMCPServer(m)
			if err != nil {
				return err
			}
			if m, err = putMCPServer(ctx, tx, m, now); err != nil {
				return err
			}
			out = append(out, m)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mcp_servers`).Scan(&n); err != nil {
			return err
		}
		if n > chat.MaxMCPServers {
			return chat.Errorf(chat.CodeInvalid, "Errand keeps at most %d MCP servers", chat.MaxMCPServers)
		}
		return nil
	})
	if err != nil {
		return nil, wrapOp("save the MCP servers", err)
	}
	return out, nil
}

func putMCPServer(ctx context.Context, tx *sql.Tx, m chat.MCPServer, now time.Time) (chat.MCPServer, error) {
	if m.ID == "" {
		m.ID, m.CreatedAt = uuid.NewString(), now
	} else {
		old, err := mcpServerByID(ctx, tx, m.ID)
		if err != nil {
			return m, err
		}
		m.CreatedAt = old.CreatedAt
	}
	m.CreatedAt, m.UpdatedAt = fromMS(ms(m.CreatedAt)), fromMS(ms(now))
	m.Env = nil
	b, err := json.Marshal(m)
	if err != nil {
		return m, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO mcp_servers (id, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, config = excluded.config, updated_at = excluded.updated_at`,
		m.ID, m.Name, string(b), ms(m.CreatedAt), ms(now))
	if isUniqueViolation(err) {
		return m, chat.Errorf(chat.CodeConflict, "there is already an MCP server named %s; choose another name", chat.Quote(m.Name))
	}
	return m, err
}

// DeleteMCPServer removes a server; it returns the server removed.
func (s *Store) DeleteMCPServer(ctx context.Context, id string) (chat.MCPServer, error) {
	var m chat.MCPServer
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if m, err = mcpServerByID(ctx, tx, id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM mcp_servers WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return m, wrapOp("remove the MCP server", err)
	}
	return m, nil
}

// SaveToolImage keeps an image a tool returned and gives its id.
func (s *Store) SaveToolImage(ctx context.Context, mime string, data []byte) (string, error) {
	id := uuid.NewString()
	_, err := s.exec(ctx, `INSERT INTO tool_images (id, mime, data, created_at) VALUES (?, ?, ?, ?)`, id, mime, data, ms(time.Now()))
	if err != nil {
		return "", fmt.Errorf("keep the image: %w", err)
	}
	return id, nil
}

// ToolImage returns a kept image, or a CodeNotFound error.
func (s *Store) ToolImage(ctx context.Context, id string) (mime string, data []byte, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT mime, data FROM tool_images WHERE id = ?`, id).Scan(&mime, &data)
	if isNoRows(err) {
		return "", nil, chat.Errorf(chat.CodeNotFound, "no image has the id %s", chat.Quote(id))
	}
	return mime, data, err
}

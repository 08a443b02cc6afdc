package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"

	"modernc.org/sqlite"
)

// driverName is modernc.org/sqlite with a prepared-statement cache per
// connection. database/sql prepares (parses and plans) every query anew on
// each call; on the agent's hot path that was about a sixth of the CPU a
// step costs. Each pooled connection keeps its statements by query text and
// reuses them; a statement whose rows are still open is not shared (a
// one-off is prepared instead), and one that fails is dropped.
const driverName = "sqlite-errand"

func init() { sql.Register(driverName, cachingDriver{}) }

type cachingDriver struct{}

// innerConn is what modernc.org/sqlite's connections implement.
type innerConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
}

func (cachingDriver) Open(name string) (driver.Conn, error) {
	c, err := (&sqlite.Driver{}).Open(name)
	if err != nil {
		return nil, err
	}
	inner, ok := c.(innerConn)
	if !ok {
		return c, nil // not the driver we know: no cache
	}
	return &cachingConn{innerConn: inner, stmts: map[string]*cachedStmt{}}, nil
}

// maxStatements bounds a connection's cache; the store has a few dozen
// distinct queries.
const maxStatements = 256

type cachingConn struct {
	innerConn
	stmts map[string]*cachedStmt
}

type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	}
	busy bool // its rows are open
}

// cacheable excludes scripts (several statements), which the driver runs
// statement by statement.
func cacheable(query string) bool {
	q := strings.TrimRight(strings.TrimSpace(query), "; \n\t")
	return !strings.Contains(q, ";")
}

// stmt returns the connection's statement for query, or nil when the
// query should run without the cache.
func (c *cachingConn) stmt(ctx context.Context, query string) (*cachedStmt, error) {
	if !cacheable(query) {
		return nil, nil
	}
	if cs := c.stmts[query]; cs != nil {
		if cs.busy {
			return nil, nil
		}
		return cs, nil
	}
	if len(c.stmts) >= maxStatements {
		return nil, nil
	}
	s, err := c.innerConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := s.(interface {
		driver.Stmt
		driver.StmtExecContext
		driver.StmtQueryContext
	})
	if !ok {
		s.Close()
		return nil, nil
	}
	cs := &cachedStmt{stmt: st}
	c.stmts[query] = cs
	return cs, nil
}

func (c *cachingConn) drop(query string) {
	if cs := c.stmts[query]; cs != nil {
		delete(c.stmts, query)
		cs.stmt.Close()
	}
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.innerConn.ExecContext(ctx, query, args)
	}
	res, err := cs.stmt.ExecContext(ctx, args)
	if err != nil {
		c.drop(query)
	}
	return res, err
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.innerConn.QueryContext(ctx, query, args)
	}
	rows, err := cs.stmt.QueryContext(ctx, args)
	if err != nil {
		c.drop(query)
		return nil, err
	}
	cs.busy = true
	return &cachedRows{Rows: rows, cs: cs}, nil
}

func (c *cachingConn) Close() error {
	for q := range c.stmts {
		c.drop(q)
	}
	return c.innerConn.Close()
}

// ResetSession and IsValid pass through when the driver has them.
func (c *cachingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.innerConn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *cachingConn) IsValid() bool {
	if v, ok := c.innerConn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// cachedRows frees its statement for reuse when closed.
type cachedRows struct {
	driver.Rows
	cs *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.cs.busy = false
	return err
}

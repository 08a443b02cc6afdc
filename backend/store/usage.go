package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

// AddConversationUsage adds what a model call outside any task used and
// cost (variations, "Compact now") to the conversation's totals.
func (s *Store) AddConversationUsage(ctx context.Context, conversationID string, u chat.Usage, cost float64) error {
	if err := chat.CheckFinite("a model call's cost", cost); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getConversation(ctx, tx, conversationID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO conversation_usage (conversation_id, prompt_tokens, completion_tokens, total_tokens,
				cache_read_tokens, cache_write_tokens, cost_usd) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT DO UPDATE SET prompt_tokens = prompt_tokens + excluded.prompt_tokens,
				completion_tokens = completion_tokens + excluded.completion_tokens, total_tokens = total_tokens + excluded.total_tokens,
				cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
				cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, cost_usd = cost_usd + excluded.cost_usd`,
			conversationID, u.PromptTokens, u.CompletionTokens, u.TotalTokens, u.CacheReadTokens, u.CacheWriteTokens, cost)
		if err != nil {
			return fmt.Errorf("add usage: %w", err)
		}
		return nil
	})
}

// conversationUsage adds up the usage and spend of a conversation: its
// tasks' and its calls outside them.
func conversationUsage(ctx context.Context, q queryer, conversationID string) (chat.Usage, float64, error) {
	var u chat.Usage
	var cost float64
	rows, err := q.QueryContext(ctx, `SELECT prompt_tokens, completion_tokens, total_tokens, cache_read_tokens, cache_write_tokens, cost_usd
		FROM tasks WHERE conversation_id = ?1
		UNION ALL SELECT prompt_tokens, completion_tokens, total_tokens, cache_read_tokens, cache_write_tokens, cost_usd
		FROM conversation_usage WHERE conversation_id = ?1`, conversationID)
	if err != nil {
		return u, 0, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t chat.Usage
		var c float64
		if err := rows.Scan(&t.PromptTokens, &t.CompletionTokens, &t.TotalTokens, &t.CacheReadTokens, &t.CacheWriteTokens, &c); err != nil {
			return u, 0, fmt.Errorf("read usage: %w", err)
		}
		u = u.Add(t)
		cost += chat.ClampCost(c)
	}
	return u, cost, rows.Err()
}

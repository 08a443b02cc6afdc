import { describe, expect, it, vi } from 'vitest';
import { delta, message } from '../../test/fixtures';
import { applyDelta, emptyConversationMessages, upsertMessages } from '../../stores/messagesReducer';

import { selectRows } from './MessageList';

const C = 'rows';

describe('selectRows', () => {
  it('a delta in a conversation of 10,000 messages keeps the rows without walking the messages', () => {
    const msgs = Array.from({ length: 10_000 }, (_, i) => message(`m${i}`, C, { content: `reply ${i}`, seq: i + 1 }));
    msgs.push(message('live', C, { content: '', streaming: true, seq: 20_000 }));
    let s = upsertMessages(emptyConversationMessages(), msgs);
    const rows = selectRows(C, s);
    expect(rows.keys).toHaveLength(10_001);
    const walked = vi.spyOn(s.ids, Symbol.iterator);
    let offset = 0;
    for (const text of ['Hel', 'lo', ', world']) {
      s = applyDelta(s, delta(C, 'live', offset, text, offset + 2)).state;
      offset += text.length;
      expect(selectRows(C, s)).toBe(rows);
    }
    expect(walked).not.toHaveBeenCalled();
  });

  it('rows change when a streamed message shows other items', () => {
    let s = upsertMessages(emptyConversationMessages(), [
      message('u', C, { role: 'user', content: 'Hi', seq: 1 }),
      message('a', C, { content: '', seq: 2, toolCalls: [{ id: 'x', name: 'web_search', arguments: '{}' }] }),
    ]);
    const before = selectRows(`${C}2`, s);
    expect(before.kinds).toEqual(['user', 'toolCall']);
    // Text arriving before the tool call adds the reply's own row.
    s = applyDelta(s, delta(C, 'a', 0, 'Looking.', 2)).state;
    expect(selectRows(`${C}2`, s).kinds).toEqual(['user', 'agent', 'toolCall']);
  });
});

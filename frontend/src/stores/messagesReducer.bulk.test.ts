import { describe, expect, it } from 'vitest';
import { message } from '../test/fixtures';
import {
  emptyConversationMessages,
  finishLoad,
  messageOf,
  orderedMessages,
  upsertMessage,
  upsertMessages,
} from './messagesReducer';

describe('upsertMessages (snapshots)', () => {
  it('orders by seq, keeps newer revs, and inserts after equal seqs like upsertMessage', () => {
    let s = upsertMessage(emptyConversationMessages(), message('b', 'c', { seq: 2, rev: 5, content: 'event b' }));
    s = upsertMessages(s, [
      message('c', 'c', { seq: 3 }),
      message('a', 'c', { seq: 1 }),
      message('b', 'c', { seq: 2, rev: 3, content: 'old b' }), // older than the event
      message('a2', 'c', { seq: 1 }), // equal seq: after the one there
    ]);
    expect(s.ids).toEqual(['a', 'a2', 'b', 'c']);
    expect(messageOf(s, 'b')?.content).toBe('event b');
  });

  it('returns the same state when nothing is newer', () => {
    const s = upsertMessages(emptyConversationMessages(), [message('a', 'c', { seq: 1 }), message('b', 'c', { seq: 2 })]);
    expect(upsertMessages(s, [message('a', 'c', { seq: 1 }), message('b', 'c', { seq: 2 })])).toBe(s);
  });

  // How long it takes is a figure of messagesReducer.bench.ts, not a bound here.
  it('loads 10,000 messages, all of them, in seq order', () => {
    const msgs = Array.from({ length: 10_000 }, (_, i) => message(`m${i}`, 'c', { seq: 10_000 - i, content: `#${i}` }));
    const s = finishLoad(emptyConversationMessages(), msgs);
    expect(s.ids).toHaveLength(10_000);
    expect(orderedMessages(s)[0]?.content).toBe('#9999');
  });
});

import { describe, expect, it } from 'vitest';
import { delta, message } from '../test/fixtures';
import { appendedSince } from '../lib/grownText';
import {
  applyDelta,
  beginLoad,
  bufferDelta,
  emptyConversationMessages,
  finishLoad,
  messageOf,
  orderedMessages,
  upsertMessage,
  upsertMessages,
} from './messagesReducer';

const C = 'c1';

describe('upsertMessage', () => {
  it('inserts in seq order whatever the arrival order', () => {
    let s = emptyConversationMessages();
    s = upsertMessage(s, message('b', C, { seq: 2 }));
    s = upsertMessage(s, message('c', C, { seq: 3 }));
    s = upsertMessage(s, message('a', C, { seq: 1 }));
    expect(s.ids).toEqual(['a', 'b', 'c']);
  });

  it('keeps the message with the higher rev', () => {
    let s = emptyConversationMessages();
    s = upsertMessage(s, message('m', C, { seq: 1, rev: 3, content: 'newer' }));
    const same = upsertMessage(s, message('m', C, { seq: 1, rev: 2, content: 'older' }));
    expect(same).toBe(s);
    expect(messageOf(same, 'm')?.content).toBe('newer');
    s = upsertMessage(s, message('m', C, { seq: 1, rev: 4, content: 'newest', streaming: false }));
    expect(messageOf(s, 'm')?.content).toBe('newest');
    expect(s.ids).toEqual(['m']);
  });

  it('equal rev does not replace (replays are no-ops)', () => {
    let s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 2, content: 'x' }));
    const again = upsertMessage(s, message('m', C, { rev: 2, content: 'x' }));
    expect(again).toBe(s);
  });

  it('tracks content length in UTF-8 bytes', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { content: 'héllo 👋' }));
    expect(messageOf(s, 'm')?.contentBytes).toBe(11);
  });
});

describe('applyDelta', () => {
  const streaming = () =>
    upsertMessage(emptyConversationMessages(), message('m', C, { rev: 1, content: '', streaming: true }));

  it('appends text when the byte offset matches', () => {
    let s = streaming();
    let r = applyDelta(s, delta(C, 'm', 0, 'Hello', 2));
    expect(r.outcome).toBe('applied');
    s = r.state;
    r = applyDelta(s, delta(C, 'm', 5, ', wörld', 3));
    expect(r.outcome).toBe('applied');
    s = r.state;
    expect(messageOf(s, 'm')?.content).toBe('Hello, wörld');
    expect(messageOf(s, 'm')?.contentBytes).toBe(13);
    expect(messageOf(s, 'm')?.rev).toBe(3);
  });

  it('records what each delta appended, so the reply can be read from where it was last shown', () => {
    let s = applyDelta(streaming(), delta(C, 'm', 0, 'Hello', 2)).state;
    const shown = messageOf(s, 'm')!;
    s = applyDelta(s, delta(C, 'm', 5, ', wörld', 3)).state;
    s = applyDelta(s, { ...delta(C, 'm', 0, 'thinking', 4), reasoning: true }).state;
    s = applyDelta(s, delta(C, 'm', 13, '!', 5)).state;
    const now = messageOf(s, 'm')!;
    expect(now.grown?.length).toBe(now.content.length);
    expect(appendedSince(now.grown!, shown.grown)).toBe(', wörld!');
    // The stored message (its stream's end, a reload) has none: it is read whole.
    expect(messageOf(upsertMessage(s, message('m', C, { rev: 6, content: 'Hello, wörld!' })), 'm')?.grown).toBeUndefined();
  });

  it('counts offsets in bytes, not UTF-16 units', () => {
    let s = streaming();
    s = applyDelta(s, delta(C, 'm', 0, '日本', 2)).state; // 6 bytes, 2 JS chars
    const wrong = applyDelta(s, delta(C, 'm', 2, 'x', 3));
    expect(wrong.outcome).toBe('mismatch');
    const right = applyDelta(s, delta(C, 'm', 6, '語', 3));
    expect(right.outcome).toBe('applied');
    expect(messageOf(right.state, 'm')?.content).toBe('日本語');
  });

  it('reports a mismatch for a gap (missed delta) and leaves content alone', () => {
    let s = streaming();
    s = applyDelta(s, delta(C, 'm', 0, 'abc', 2)).state;
    const r = applyDelta(s, delta(C, 'm', 6, 'ghi', 4));
    expect(r.outcome).toBe('mismatch');
    expect(messageOf(r.state, 'm')?.content).toBe('abc');
  });

  it('reports a mismatch for an unknown message', () => {
    const r = applyDelta(emptyConversationMessages(), delta(C, 'nope', 0, 'x', 2));
    expect(r.outcome).toBe('mismatch');
  });

  it('ignores a delta already contained in a newer snapshot (no doubling)', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 3, content: 'abcdef', streaming: true }));
    expect(applyDelta(s, delta(C, 'm', 3, 'def', 3)).outcome).toBe('ignored');
    expect(applyDelta(s, delta(C, 'm', 0, 'abc', 2)).outcome).toBe('ignored');
    expect(messageOf(applyDelta(s, delta(C, 'm', 3, 'def', 3)).state, 'm')?.content).toBe('abcdef');
  });

  it('ignores deltas older than the finished message', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 9, content: 'done', streaming: false }));
    expect(applyDelta(s, delta(C, 'm', 4, 'late', 5)).outcome).toBe('ignored');
  });
});

describe('applyDelta with reasoning', () => {
  const thinking = (offset: number, text: string, rev: number) => ({ ...delta(C, 'm', offset, text, rev), reasoning: true });
  const streaming = () =>
    upsertMessage(emptyConversationMessages(), message('m', C, { rev: 1, content: '', streaming: true }));

  it('appends thinking to the reasoning, apart from the content, by its own byte offsets', () => {
    let s = streaming();
    s = applyDelta(s, thinking(0, 'Étape un. ', 2)).state; // 11 bytes
    const r = applyDelta(s, thinking(11, 'Deux.', 3));
    expect(r.outcome).toBe('applied');
    s = r.state;
    // The answer starts at content offset 0 whatever the reasoning's length.
    s = applyDelta(s, delta(C, 'm', 0, 'Done', 4)).state;
    expect(messageOf(s, 'm')).toMatchObject({ reasoning: 'Étape un. Deux.', reasoningBytes: 16, content: 'Done', contentBytes: 4, rev: 4 });
  });

  it('reports a mismatch for a gap in the reasoning and leaves it alone', () => {
    let s = streaming();
    s = applyDelta(s, thinking(0, 'abc', 2)).state;
    const r = applyDelta(s, thinking(6, 'ghi', 4));
    expect(r.outcome).toBe('mismatch');
    expect(messageOf(r.state, 'm')?.reasoning).toBe('abc');
  });

  it('ignores thinking a snapshot already holds, and counts a stored reasoning’s bytes', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 3, reasoning: 'añadido', streaming: true }));
    expect(messageOf(s, 'm')?.reasoningBytes).toBe(8);
    expect(applyDelta(s, thinking(0, 'añadido', 3)).outcome).toBe('ignored');
    expect(applyDelta(s, thinking(8, '!', 4)).outcome).toBe('applied');
  });
});

describe('load merge', () => {
  it('merges a snapshot with event messages by rev and replays buffered deltas', () => {
    // Before the snapshot arrives, events deliver a new streaming message
    // and a delta for a message the store does not know yet.
    let s = beginLoad(emptyConversationMessages());
    s = upsertMessage(s, message('m2', C, { seq: 20, rev: 1, content: '', streaming: true }));
    s = bufferDelta(s, delta(C, 'm1', 3, 'def', 3)); // already in the snapshot
    s = bufferDelta(s, delta(C, 'm1', 6, 'ghi', 4)); // after the snapshot
    s = finishLoad(s, [
      message('m0', C, { seq: 1, rev: 1, role: 'user', content: 'hi' }),
      message('m1', C, { seq: 10, rev: 3, content: 'abcdef', streaming: true }),
    ]);
    expect(s.loaded).toBe(true);
    expect(s.loading).toBe(false);
    expect(s.stale).toBe(false);
    expect(s.pendingDeltas).toEqual([]);
    expect(orderedMessages(s).map((m) => m.id)).toEqual(['m0', 'm1', 'm2']);
    expect(messageOf(s, 'm1')?.content).toBe('abcdefghi');
  });

  it('keeps an event message newer than the snapshot copy', () => {
    let s = beginLoad(emptyConversationMessages());
    s = upsertMessage(s, message('m', C, { seq: 5, rev: 7, content: 'final answer' }));
    s = finishLoad(s, [message('m', C, { seq: 5, rev: 4, content: 'final', streaming: true })]);
    expect(messageOf(s, 'm')?.content).toBe('final answer');
    expect(messageOf(s, 'm')?.streaming).toBeFalsy();
  });

  it('is stale when a buffered delta still does not fit', () => {
    let s = beginLoad(emptyConversationMessages());
    s = bufferDelta(s, delta(C, 'ghost', 0, 'x', 2));
    s = finishLoad(s, []);
    expect(s.stale).toBe(true);
  });

  it('upsertMessages is idempotent', () => {
    const msgs = [message('a', C, { seq: 1 }), message('b', C, { seq: 2 })];
    const once = upsertMessages(emptyConversationMessages(), msgs);
    const twice = upsertMessages(once, msgs);
    expect(twice).toBe(once);
    expect(twice.ids).toEqual(['a', 'b']);
  });
});

describe('streamed copies (live)', () => {
  const many = Array.from({ length: 1000 }, (_, i) => message(`m${i}`, C, { content: 'x', seq: i + 1 }));

  it('a delta copies only the streamed message, never the record of all messages', () => {
    const s = upsertMessages(emptyConversationMessages(), many);
    const r = applyDelta(s, delta(C, 'm999', 1, 'yz', 2));
    expect(r.outcome).toBe('applied');
    expect(r.state.byId).toBe(s.byId);
    expect(r.state.ids).toBe(s.ids);
    expect(messageOf(r.state, 'm999')?.content).toBe('xyz');
    expect(orderedMessages(r.state).at(-1)?.content).toBe('xyz');
    // The state before the delta is unchanged.
    expect(messageOf(s, 'm999')?.content).toBe('x');
  });

  it('the next stored copy replaces the streamed one, unless it is older', () => {
    let s = upsertMessages(emptyConversationMessages(), many.slice(0, 3));
    s = applyDelta(s, delta(C, 'm2', 1, 'yz', 5)).state;
    const older = upsertMessages(s, [message('m2', C, { content: 'xy', seq: 3, rev: 4 }), message('m0', C, { rev: 9 })]);
    expect(messageOf(older, 'm2')?.content).toBe('xyz');
    const stored = upsertMessage(s, message('m2', C, { content: 'final', seq: 3, rev: 6 }));
    expect(messageOf(stored, 'm2')?.content).toBe('final');
    expect(stored.live).toEqual({});
    const snapshot = upsertMessages(s, [message('m2', C, { content: 'final', seq: 3, rev: 6 }), message('m0', C, { rev: 9 })]);
    expect(messageOf(snapshot, 'm2')?.content).toBe('final');
    expect(snapshot.live).toEqual({});
  });

  it('the same message twice in one snapshot keeps the higher rev', () => {
    let s = upsertMessages(emptyConversationMessages(), many.slice(0, 2));
    s = applyDelta(s, delta(C, 'm1', 1, 'y', 3)).state;
    s = upsertMessages(s, [message('m1', C, { content: 'six', seq: 2, rev: 6 }), message('m1', C, { content: 'five', seq: 2, rev: 5 })]);
    expect(messageOf(s, 'm1')?.content).toBe('six');
  });
});

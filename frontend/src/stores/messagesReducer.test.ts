import { describe, expect, it } from 'vitest';
import { delta, message } from '../test/fixtures';
import {
  applyDelta,
  beginLoad,
  bufferDelta,
  emptyConversationMessages,
  finishLoad,
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
    expect(same.byId.m?.content).toBe('newer');
    s = upsertMessage(s, message('m', C, { seq: 1, rev: 4, content: 'newest', streaming: false }));
    expect(s.byId.m?.content).toBe('newest');
    expect(s.ids).toEqual(['m']);
  });

  it('equal rev does not replace (replays are no-ops)', () => {
    let s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 2, content: 'x' }));
    const again = upsertMessage(s, message('m', C, { rev: 2, content: 'x' }));
    expect(again).toBe(s);
  });

  it('tracks content length in UTF-8 bytes', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { content: 'héllo 👋' }));
    expect(s.byId.m?.contentBytes).toBe(11);
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
    expect(s.byId.m?.content).toBe('Hello, wörld');
    expect(s.byId.m?.contentBytes).toBe(13);
    expect(s.byId.m?.rev).toBe(3);
  });

  it('counts offsets in bytes, not UTF-16 units', () => {
    let s = streaming();
    s = applyDelta(s, delta(C, 'm', 0, '日本', 2)).state; // 6 bytes, 2 JS chars
    const wrong = applyDelta(s, delta(C, 'm', 2, 'x', 3));
    expect(wrong.outcome).toBe('mismatch');
    const right = applyDelta(s, delta(C, 'm', 6, '語', 3));
    expect(right.outcome).toBe('applied');
    expect(right.state.byId.m?.content).toBe('日本語');
  });

  it('reports a mismatch for a gap (missed delta) and leaves content alone', () => {
    let s = streaming();
    s = applyDelta(s, delta(C, 'm', 0, 'abc', 2)).state;
    const r = applyDelta(s, delta(C, 'm', 6, 'ghi', 4));
    expect(r.outcome).toBe('mismatch');
    expect(r.state.byId.m?.content).toBe('abc');
  });

  it('reports a mismatch for an unknown message', () => {
    const r = applyDelta(emptyConversationMessages(), delta(C, 'nope', 0, 'x', 2));
    expect(r.outcome).toBe('mismatch');
  });

  it('ignores a delta already contained in a newer snapshot (no doubling)', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 3, content: 'abcdef', streaming: true }));
    expect(applyDelta(s, delta(C, 'm', 3, 'def', 3)).outcome).toBe('ignored');
    expect(applyDelta(s, delta(C, 'm', 0, 'abc', 2)).outcome).toBe('ignored');
    expect(applyDelta(s, delta(C, 'm', 3, 'def', 3)).state.byId.m?.content).toBe('abcdef');
  });

  it('ignores deltas older than the finished message', () => {
    const s = upsertMessage(emptyConversationMessages(), message('m', C, { rev: 9, content: 'done', streaming: false }));
    expect(applyDelta(s, delta(C, 'm', 4, 'late', 5)).outcome).toBe('ignored');
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
    expect(s.byId.m1?.content).toBe('abcdefghi');
  });

  it('keeps an event message newer than the snapshot copy', () => {
    let s = beginLoad(emptyConversationMessages());
    s = upsertMessage(s, message('m', C, { seq: 5, rev: 7, content: 'final answer' }));
    s = finishLoad(s, [message('m', C, { seq: 5, rev: 4, content: 'final', streaming: true })]);
    expect(s.byId.m?.content).toBe('final answer');
    expect(s.byId.m?.streaming).toBeFalsy();
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

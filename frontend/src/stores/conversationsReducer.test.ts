import { describe, expect, it } from 'vitest';
import { conversation, message, summary, withoutWorkspace } from '../test/fixtures';
import {
  emptyConversationsState,
  noteMessage,
  removeConversation,
  selectConversation,
  setConversations,
  setNeedsInput,
  upsertConversation,
} from './conversationsReducer';

describe('conversations reducer', () => {
  it('orders by activity, newest first, and re-sorts on updates', () => {
    let s = setConversations(emptyConversationsState(), [
      summary('old', { updatedAt: '2026-01-01T09:00:00Z' }),
      summary('new', { updatedAt: '2026-01-01T11:00:00Z' }),
      summary('mid', { updatedAt: '2026-01-01T10:00:00Z' }),
    ]);
    expect(s.order).toEqual(['new', 'mid', 'old']);
    s = upsertConversation(s, conversation('old', { updatedAt: '2026-01-01T12:00:00Z' }));
    expect(s.order).toEqual(['old', 'new', 'mid']);
  });

  it('orders sub-millisecond timestamps correctly', () => {
    const s = setConversations(emptyConversationsState(), [
      summary('a', { updatedAt: '2026-01-01T10:00:00.123456Z' }),
      summary('b', { updatedAt: '2026-01-01T10:00:00.123457Z' }),
    ]);
    expect(s.order).toEqual(['b', 'a']);
  });

  it('a new message moves its conversation to the top', () => {
    let s = setConversations(emptyConversationsState(), [
      summary('a', { updatedAt: '2026-01-01T10:00:00Z' }),
      summary('b', { updatedAt: '2026-01-01T11:00:00Z' }),
    ]);
    s = noteMessage(s, 'a', message('m', 'a', { createdAt: '2026-01-01T12:00:00Z' }));
    expect(s.order[0]).toBe('a');
  });

  it('counts unread only for conversations that are not open, once per message, and clears on open', () => {
    let s = setConversations(emptyConversationsState(), [summary('a'), summary('b')]);
    s = selectConversation(s, 'a');
    s = noteMessage(s, 'a', message('m1', 'a'));
    expect(s.unread.a).toBeUndefined();
    s = noteMessage(s, 'b', message('m2', 'b'));
    s = noteMessage(s, 'b', message('m2', 'b', { rev: 2 })); // same message, updated
    s = noteMessage(s, 'b', message('m3', 'b'));
    s = noteMessage(s, 'b', message('u', 'b', { role: 'user' }));
    expect(s.unread.b).toBe(2);
    s = selectConversation(s, 'b');
    expect(s.unread.b).toBeUndefined();
    s = noteMessage(s, 'a', message('m4', 'a'));
    expect(s.unread.a).toBe(1);
  });

  it('keeps the workspace when an event without it updates the title', () => {
    let s = setConversations(emptyConversationsState(), [summary('a', { workspace: '/w' })]);
    s = upsertConversation(s, withoutWorkspace(conversation('a', { title: 'Renamed', titleSet: true })));
    expect(s.byId.a?.title).toBe('Renamed');
    expect(s.byId.a?.workspace).toBe('/w');
  });

  it('needs-input flag and removal', () => {
    let s = setConversations(emptyConversationsState(), [summary('a'), summary('b')]);
    s = selectConversation(s, 'a');
    s = setNeedsInput(s, 'a', true);
    expect(s.needsInput.a).toBe(true);
    s = removeConversation(s, 'a');
    expect(s.order).toEqual(['b']);
    expect(s.selectedId).toBeNull();
    expect(s.needsInput.a).toBeUndefined();
  });
});

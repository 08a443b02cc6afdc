import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, deferred, deliverDelta, delta, message, NOTHING_USED, resetStores, summary, task } from '../test/fixtures';
import type { ConversationView } from '../api/types';

import * as api from '../api';
import { selectConversation } from './actions';
import { useConversationsStore } from './conversations';
import { useMessagesStore } from './messages';
import { messageOf, orderedMessages } from './messagesReducer';
import {
  flushDeltas,
  handleConversationUpdated,
  handleTaskMessage,
  handleTaskUpdate,
  holdStopping,
  loadConversation,
  queueDelta,
  releaseStoppingAfterPaint,
  RELOAD_INTERVAL_MS,
  requestReload,
} from './sync';
import { useTasksStore } from './tasks';

const load = vi.mocked(api.loadConversation);

function view(id: string, over: Partial<ConversationView> = {}): ConversationView {
  return { ...NOTHING_USED, conversation: conversation(id), messages: [], tasks: [], ...over };
}

function contentOf(cid: string, mid: string): string | undefined {
  const conv = useMessagesStore.getState().byConversation[cid];
  return conv && messageOf(conv, mid)?.content;
}

function idsOf(cid: string): string[] {
  const c = useMessagesStore.getState().byConversation[cid];
  return c ? orderedMessages(c).map((m) => m.id) : [];
}

/** Conversation a open, with an empty reply m of task t streaming. */
async function openStreamingReply(): Promise<void> {
  load.mockResolvedValueOnce(view('a'));
  await selectConversation('a');
  handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m', 'a', { streaming: true, rev: 1 }) });
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary('a'), summary('b')]);
});

describe('sync', () => {
  it('applies streamed deltas to a loaded conversation', async () => {
    await openStreamingReply();
    deliverDelta(delta('a', 'm', 0, 'Hel', 2));
    deliverDelta(delta('a', 'm', 3, 'lo ✓', 3));
    expect(contentOf('a', 'm')).toBe('Hello ✓');
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m', 'a', { content: 'Hello ✓', rev: 4 }) });
    expect(contentOf('a', 'm')).toBe('Hello ✓');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the deltas received between two frames together, at the next frame, in one update of the store', async () => {
    await openStreamingReply();
    let updates = 0;
    const off = useMessagesStore.subscribe(() => updates++);
    vi.useFakeTimers();
    try {
      queueDelta(delta('a', 'm', 0, 'Hel', 2));
      queueDelta(delta('a', 'm', 3, 'lo', 3));
      expect(contentOf('a', 'm')).toBe('');
      expect(updates).toBe(0);
      vi.runOnlyPendingTimers();
    } finally {
      vi.useRealTimers();
      off();
    }
    expect(contentOf('a', 'm')).toBe('Hello');
    expect(updates).toBe(1);
  });

  it("a frame's deltas that do not fit reload their conversation only; the others show in the same update", async () => {
    load.mockResolvedValueOnce(view('a')).mockResolvedValueOnce(view('b'));
    await selectConversation('a');
    await selectConversation('b');
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m', 'a', { streaming: true, rev: 1 }) });
    handleTaskMessage({ conversationId: 'b', taskId: 'u', message: message('n', 'b', { streaming: true, rev: 1 }) });
    load.mockResolvedValueOnce(view('b', { messages: [message('n', 'b', { content: 'xyz!', rev: 4, streaming: true })] }));
    // What each update of the store shows (the reload that follows is one more).
    const seen: string[] = [];
    const off = useMessagesStore.subscribe((st) => seen.push(`${contentOf('a', 'm')} ${st.byConversation.b?.stale}`));
    queueDelta(delta('a', 'm', 0, 'Hel', 2));
    queueDelta(delta('b', 'n', 3, '!', 4)); // "xyz" was missed
    queueDelta(delta('a', 'm', 3, 'lo', 3));
    flushDeltas();
    off();
    expect(seen[0]).toBe('Hello true');
    expect(contentOf('a', 'm')).toBe('Hello');
    expect(contentOf('b', 'n')).toBe(''); // never shows a gap
    expect(useMessagesStore.getState().byConversation.b?.stale).toBe(true);
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
    await vi.waitFor(() => expect(contentOf('b', 'n')).toBe('xyz!'));
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("a frame's deltas delivered out of order fit in the order Go stored them (no reload)", async () => {
    await openStreamingReply();
    queueDelta(delta('a', 'm', 3, 'lo', 3));
    queueDelta(delta('a', 'm', 0, 'Hel', 2));
    flushDeltas();
    expect(contentOf('a', 'm')).toBe('Hello');
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a delta that came a frame early waits for the one before it: it fits then, and nothing is read again', async () => {
    await openStreamingReply();
    vi.useFakeTimers();
    try {
      deliverDelta(delta('a', 'm', 3, 'lo', 3));
      expect(contentOf('a', 'm')).toBe(''); // never shows a gap
      deliverDelta(delta('a', 'm', 0, 'Hel', 2));
      expect(contentOf('a', 'm')).toBe('Hello');
      expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
      await vi.advanceTimersByTimeAsync(RELOAD_INTERVAL_MS);
    } finally {
      vi.useRealTimers();
    }
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a reload asked for another reason still happens when early deltas fit meanwhile', async () => {
    await openStreamingReply();
    vi.useFakeTimers();
    try {
      requestReload('a'); // e.g. an ended task whose reply still streamed here
      deliverDelta(delta('a', 'm', 3, 'lo', 3));
      deliverDelta(delta('a', 'm', 0, 'Hel', 2));
      expect(contentOf('a', 'm')).toBe('Hello');
      await vi.advanceTimersByTimeAsync(RELOAD_INTERVAL_MS);
    } finally {
      vi.useRealTimers();
    }
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('deltas held while a task stops, delivered out of order over frames, fit when they are released (no reload)', async () => {
    await openStreamingReply();
    deliverDelta(delta('a', 'm', 0, 'Hel', 2));
    holdStopping('t');
    deliverDelta(delta('a', 'm', 5, '!', 4));
    deliverDelta(delta('a', 'm', 3, 'lo', 3));
    expect(contentOf('a', 'm')).toBe('Hel');
    releaseStoppingAfterPaint('t');
    await vi.waitFor(() => expect(contentOf('a', 'm')).toBe('Hello!'));
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a stream that ends before the next frame keeps every delta received (no reload)', async () => {
    await openStreamingReply();
    queueDelta(delta('a', 'm', 0, 'Hel', 2));
    queueDelta(delta('a', 'm', 3, 'lo ✓', 3));
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m', 'a', { rev: 4 }), streamed: true, contentBytes: 9 });
    expect(contentOf('a', 'm')).toBe('Hello ✓');
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
    flushDeltas();
    expect(contentOf('a', 'm')).toBe('Hello ✓');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a delta offset mismatch marks the conversation stale and reloads it', async () => {
    load.mockResolvedValueOnce(view('a', { messages: [message('m', 'a', { content: 'abc', rev: 2, streaming: true })] }));
    await selectConversation('a');
    load.mockResolvedValueOnce(
      view('a', { messages: [message('m', 'a', { content: 'abcdefghi', rev: 4, streaming: true })] }),
    );
    deliverDelta(delta('a', 'm', 6, 'ghi', 4)); // the delta with "def" was missed
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(true);
    expect(contentOf('a', 'm')).toBe('abc'); // never shows a gap
    // Reloads are throttled per conversation, so this one may come a moment later.
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(contentOf('a', 'm')).toBe('abcdefghi'));
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(false);
  });

  it('applies streamed thinking to the reasoning, and reloads on a gap in it', async () => {
    load.mockResolvedValueOnce(view('a', { messages: [message('m', 'a', { reasoning: 'abc', rev: 2, streaming: true })] }));
    await selectConversation('a');
    const reasoningOf = () => messageOf(useMessagesStore.getState().byConversation.a!, 'm')?.reasoning;
    deliverDelta({ ...delta('a', 'm', 3, 'def', 3), reasoning: true });
    expect(reasoningOf()).toBe('abcdef');
    expect(contentOf('a', 'm')).toBe('');

    load.mockResolvedValueOnce(
      view('a', { messages: [message('m', 'a', { reasoning: 'abcdefghijkl', rev: 5, streaming: true })] }),
    );
    deliverDelta({ ...delta('a', 'm', 9, 'jkl', 5), reasoning: true }); // "ghi" was missed
    expect(reasoningOf()).toBe('abcdef'); // never shows a gap
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(reasoningOf()).toBe('abcdefghijkl'));
  });

  it('a delta for an unknown message in a loaded conversation triggers a reload', async () => {
    load.mockResolvedValue(view('a'));
    await selectConversation('a');
    deliverDelta(delta('a', 'ghost', 0, 'x', 2));
    expect(useMessagesStore.getState().byConversation.a?.stale).toBe(true);
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });

  it('events for conversations never loaded only touch sidebar state', () => {
    useConversationsStore.getState().select('a');
    handleTaskMessage({ conversationId: 'b', taskId: 't', message: message('m', 'b', { content: 'hi' }) });
    deliverDelta(delta('b', 'm', 2, '!', 2));
    expect(load).not.toHaveBeenCalled();
    expect(useMessagesStore.getState().byConversation.b).toBeUndefined();
    expect(useConversationsStore.getState().unread.b).toBe(1);
  });

  it('an event that arrives during LoadConversation is neither lost nor doubled', async () => {
    const pending = deferred<ConversationView>();
    load.mockReturnValueOnce(pending.promise);
    const opened = selectConversation('a');

    // While loading: a finished message (also in the snapshot), a new
    // streaming message (not in it) and deltas on both sides of the snapshot.
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('u1', 'a', { seq: 1, role: 'user', content: 'go' }) });
    deliverDelta(delta('a', 'm1', 2, 'cd', 3)); // unknown yet: buffered; in snapshot
    deliverDelta(delta('a', 'm1', 4, 'ef', 4)); // after snapshot
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m2', 'a', { seq: 3, streaming: true }) });

    pending.resolve(
      view('a', {
        messages: [
          message('u1', 'a', { seq: 1, role: 'user', content: 'go' }),
          message('m1', 'a', { seq: 2, content: 'abcd', rev: 3, streaming: true }),
        ],
      }),
    );
    await opened;

    expect(idsOf('a')).toEqual(['u1', 'm1', 'm2']);
    expect(contentOf('a', 'm1')).toBe('abcdef');
    expect(load).toHaveBeenCalledTimes(1);

    // Switching away and back shows what arrived meanwhile, exactly once.
    await selectConversation('b').catch(() => {});
    deliverDelta(delta('a', 'm1', 6, 'gh', 5));
    handleTaskMessage({ conversationId: 'a', taskId: 't', message: message('m3', 'a', { seq: 4, content: 'more' }) });
    load.mockResolvedValueOnce(
      view('a', {
        messages: [
          message('u1', 'a', { seq: 1, role: 'user', content: 'go' }),
          message('m1', 'a', { seq: 2, content: 'abcdefgh', rev: 5, streaming: true }),
          message('m2', 'a', { seq: 3, rev: 1, streaming: true }),
          message('m3', 'a', { seq: 4, content: 'more' }),
        ],
      }),
    );
    await selectConversation('a');
    expect(idsOf('a')).toEqual(['u1', 'm1', 'm2', 'm3']);
    expect(contentOf('a', 'm1')).toBe('abcdefgh');
  });

  it('two tasks in two conversations at once do not interfere', async () => {
    load.mockImplementation(async (id: string) => view(id));
    await selectConversation('b');
    await selectConversation('a');

    handleTaskUpdate(task('ta', 'a', { status: 'thinking', stepCount: 1 }));
    handleTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 1 }));
    handleTaskMessage({ conversationId: 'a', taskId: 'ta', message: message('ma', 'a', { streaming: true }) });
    handleTaskMessage({ conversationId: 'b', taskId: 'tb', message: message('mb', 'b', { streaming: true }) });
    deliverDelta(delta('a', 'ma', 0, 'alpha ', 2));
    deliverDelta(delta('b', 'mb', 0, 'beta ', 2));
    deliverDelta(delta('a', 'ma', 6, 'one', 3));
    deliverDelta(delta('b', 'mb', 5, 'two', 3));
    handleTaskUpdate(task('tb', 'b', { status: 'waiting_user', stepCount: 2, pendingQuestion: '?' }));
    handleTaskUpdate(task('ta', 'a', { status: 'completed', stepCount: 2 }));

    expect(contentOf('a', 'ma')).toBe('alpha one');
    expect(contentOf('b', 'mb')).toBe('beta two');
    const tasks = useTasksStore.getState();
    expect(tasks.activeByConversation.a).toBeUndefined();
    expect(tasks.activeByConversation.b).toBe('tb');
    const convs = useConversationsStore.getState();
    expect(convs.needsInput.b).toBe(true);
    expect(convs.needsInput.a).toBeFalsy();
    expect(convs.unread.b).toBe(1);
    expect(convs.unread.a).toBeUndefined();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('task updates set and clear the needs-input flag', () => {
    handleTaskUpdate(task('t', 'a', { status: 'waiting_user' }));
    expect(useConversationsStore.getState().needsInput.a).toBe(true);
    handleTaskUpdate(task('t', 'a', { status: 'running', stepCount: 1 }));
    expect(useConversationsStore.getState().needsInput.a).toBeFalsy();
  });

  it('load applies the conversation, its tasks and its active task', async () => {
    load.mockResolvedValueOnce(
      view('a', {
        ...NOTHING_USED,
        conversation: conversation('a', { title: 'Loaded title', mode: 'chat' }),
        tasks: [task('old', 'a', { status: 'completed' }), task('t', 'a', { status: 'waiting_user' })],
        activeTask: task('t', 'a', { status: 'waiting_user' }),
      }),
    );
    await loadConversation('a');
    expect(useConversationsStore.getState().byId.a?.title).toBe('Loaded title');
    expect(useTasksStore.getState().activeByConversation.a).toBe('t');
    expect(useConversationsStore.getState().needsInput.a).toBe(true);
  });

  it('conversation:updated renames and reorders', () => {
    handleConversationUpdated(conversation('b', { title: 'Plan a trip', updatedAt: '2026-02-01T00:00:00Z' }));
    const s = useConversationsStore.getState();
    expect(s.byId.b?.title).toBe('Plan a trip');
    expect(s.order[0]).toBe('b');
  });

  it('concurrent loads of one conversation share one request', async () => {
    const pending = deferred<ConversationView>();
    load.mockReturnValueOnce(pending.promise);
    const p1 = loadConversation('a');
    const p2 = loadConversation('a');
    load.mockResolvedValueOnce(view('a'));
    pending.resolve(view('a'));
    await Promise.all([p1, p2]);
    // The second call asked for fresh data, so one more load follows, throttled.
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });
});

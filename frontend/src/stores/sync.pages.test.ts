import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView, Message } from '../api/types';
import { conversation, deferred, deliverDelta, delta, message, NOTHING_USED, resetStores, summary } from '../test/fixtures';

import * as api from '../api';
import { useConversationsStore } from './conversations';
import { useMessagesStore } from './messages';
import { messageOf, orderedMessages } from './messagesReducer';
import {
  handleTaskMessage,
  jumpToMessage,
  loadConversation,
  loadNewer,
  loadOlder,
  showLatest,
} from './sync';
import { MESSAGE_PAGE } from '../api/pageSizes';

const C = 'c';

/** Messages n0..n(count-1) of the conversation, seq 1000+i. */
function range(from: number, to: number): Message[] {
  const out: Message[] = [];
  for (let i = from; i < to; i++) out.push(message(`n${i}`, C, { seq: 1000 + i, content: `Message ${i}` }));
  return out;
}

function view(over: Partial<ConversationView>): ConversationView {
  return { ...NOTHING_USED, conversation: conversation(C), messages: [], tasks: [], ...over };
}

function ids(): string[] {
  const conv = useMessagesStore.getState().byConversation[C];
  return conv ? orderedMessages(conv).map((m) => m.id) : [];
}

function state() {
  return useMessagesStore.getState().byConversation[C]!;
}

function names(from: number, to: number): string[] {
  return range(from, to).map((m) => m.id);
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
});

describe('messages in pages', () => {
  it('opens with the latest messages and prepends older pages as asked, once at a time', async () => {
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(900, 1000), hasOlder: true }));
    await loadConversation(C);
    expect(ids()).toEqual(names(900, 1000));
    expect(state().hasOlder).toBe(true);

    const page = deferred<Awaited<ReturnType<typeof api.getMessagesPage>>>();
    vi.mocked(api.getMessagesPage).mockReturnValueOnce(page.promise);
    const first = loadOlder(C);
    const again = loadOlder(C); // a second scroll event while the page is read
    expect(api.getMessagesPage).toHaveBeenCalledTimes(1);
    expect(api.getMessagesPage).toHaveBeenCalledWith(C, 'n900', MESSAGE_PAGE);
    expect(state().loadingOlder).toBe(true);
    page.resolve({ messages: range(800, 900), hasOlder: false, hasNewer: true });
    await Promise.all([first, again]);
    expect(ids()).toEqual(names(800, 1000));
    expect(state().hasOlder).toBe(false);
    expect(state().loadingOlder).toBe(false);

    await loadOlder(C); // nothing older: no call
    expect(api.getMessagesPage).toHaveBeenCalledTimes(1);
  });

  it('keeps applying events after paging, and leaves messages before the window to their page', async () => {
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(900, 1000), hasOlder: true }));
    await loadConversation(C);
    vi.mocked(api.getMessagesPage).mockResolvedValueOnce({ messages: range(800, 900), hasOlder: true, hasNewer: true });
    await loadOlder(C);

    // A new streaming reply at the end, and its deltas.
    const reply = message('live', C, { seq: 5000, streaming: true, content: 'Hel', rev: 1 });
    handleTaskMessage({ conversationId: C, taskId: 't', message: reply });
    deliverDelta(delta(C, 'live', 3, 'lo', 2));
    expect(messageOf(state(), 'live')?.content).toBe('Hello');
    expect(ids().at(-1)).toBe('live');
    expect(ids()).toHaveLength(201);

    // An update of a message before the window is not taken: it comes with its page.
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('old', C, { seq: 5, content: 'x' }) });
    expect(ids()).not.toContain('old');
    // An update of a message held is.
    handleTaskMessage({ conversationId: C, taskId: 't', message: { ...range(850, 851)[0]!, rev: 2, content: 'edited' } });
    expect(messageOf(state(), 'n850')?.content).toBe('edited');
    expect(api.loadConversation).toHaveBeenCalledTimes(1);
  });

  it('a reload that no longer reaches what is held starts again from the latest page', async () => {
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(900, 1000), hasOlder: true }));
    await loadConversation(C);
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(1200, 1300), hasOlder: true }));
    await loadConversation(C);
    expect(ids()).toEqual(names(1200, 1300));
    expect(state().hasOlder).toBe(true);
    // One that overlaps merges.
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(1250, 1350), hasOlder: true }));
    await loadConversation(C);
    expect(ids()).toEqual(names(1200, 1350));
  });

  it('jumps to a message far back, loads newer pages down to the latest, then follows events again', async () => {
    vi.mocked(api.loadConversation).mockResolvedValue(view({ messages: range(9900, 10000), hasOlder: true }));
    await loadConversation(C);
    vi.mocked(api.getMessagesAround).mockResolvedValueOnce({ messages: range(10, 110), hasOlder: true, hasNewer: true });
    expect(await jumpToMessage(C, 'n60')).toBe(true);
    expect(api.getMessagesAround).toHaveBeenCalledWith(C, 'n60', MESSAGE_PAGE);
    expect(ids()).toEqual(names(10, 110));
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: true });

    // Already held: no call.
    expect(await jumpToMessage(C, 'n20')).toBe(true);
    expect(api.getMessagesAround).toHaveBeenCalledTimes(1);

    // Past the window's end, events and deltas wait for their page; no reload.
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('tail', C, { seq: 99999, streaming: true }) });
    deliverDelta(delta(C, 'tail', 0, 'hi', 2));
    expect(ids()).not.toContain('tail');
    expect(api.loadConversation).toHaveBeenCalledTimes(1);

    vi.mocked(api.getMessagesAfter).mockResolvedValueOnce({ messages: range(110, 210), hasOlder: true, hasNewer: true });
    await loadNewer(C);
    expect(api.getMessagesAfter).toHaveBeenCalledWith(C, 'n109', MESSAGE_PAGE);
    expect(ids()).toEqual(names(10, 210));
    expect(state().hasNewer).toBe(true);

    // Back to the latest: opened afresh, and events apply again.
    await showLatest(C);
    expect(ids()).toEqual(names(9900, 10000));
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: false });
    handleTaskMessage({ conversationId: C, taskId: 't', message: message('after', C, { seq: 99999 }) });
    expect(ids().at(-1)).toBe('after');
  });

  it('the last newer page hands over to events with one reload', async () => {
    vi.useFakeTimers();
    try {
      vi.mocked(api.getMessagesAround).mockResolvedValueOnce({ messages: range(0, 100), hasOlder: false, hasNewer: true });
      vi.mocked(api.loadConversation).mockResolvedValue(view({ messages: range(150, 250), hasOlder: true }));
      await jumpToMessage(C, 'n5');
      vi.mocked(api.getMessagesAfter).mockResolvedValueOnce({ messages: range(100, 200), hasOlder: true, hasNewer: false });
      await loadNewer(C);
      await vi.runAllTimersAsync();
      expect(api.loadConversation).toHaveBeenCalledWith(C);
      expect(ids()).toEqual(names(0, 250));
      expect(state().hasNewer).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a message that cannot be found changes nothing', async () => {
    vi.mocked(api.loadConversation).mockResolvedValueOnce(view({ messages: range(0, 10) }));
    await loadConversation(C);
    vi.mocked(api.getMessagesAround).mockRejectedValueOnce(new Error('no message with id "zz"'));
    expect(await jumpToMessage(C, 'zz')).toBe(false);
    expect(ids()).toEqual(names(0, 10));
  });
});

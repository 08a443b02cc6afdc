import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../api/types';
import { conversation, deferred, message, resetStores, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, jumpToMessage } from '../../stores/sync';
import { MESSAGE_PAGE } from '../../api/pageSizes';
import { MessageList } from './MessageList';

const C = 'c';

/** Messages i in [from, to): prompts and replies, numbered. */
function range(from: number, to: number): Message[] {
  const out: Message[] = [];
  for (let i = from; i < to; i++) {
    out.push(message(`m${i}`, C, { role: i % 2 === 0 ? 'user' : 'assistant', content: `Message number ${i}`, seq: i + 1 }));
  }
  return out;
}

/** The conversation as opened: its latest 100 of 10,000 messages. */
function latestView() {
  return { ...NOTHING_USED, conversation: conversation(C), messages: range(9900, 10000), tasks: [], hasOlder: true };
}

/** The store holds the conversation as opened (latestView). */
function holdLatest() {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, range(9900, 10000), true);
}

function scroller() {
  return screen.getByRole('region', { name: 'Messages' });
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('MessageList in pages', () => {
  it('loads older messages as the person scrolls to the top, and the view moves down by what was put above', async () => {
    holdLatest();
    const page = deferred<Awaited<ReturnType<typeof api.getMessagesPage>>>();
    vi.mocked(api.getMessagesPage).mockReturnValueOnce(page.promise);
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Message number 9999')).toBeInTheDocument();
    expect(api.getMessagesPage).not.toHaveBeenCalled();

    const el = scroller();
    act(() => {
      el.scrollTop = 0;
      fireEvent.scroll(el);
    });
    await waitFor(() => expect(api.getMessagesPage).toHaveBeenCalledWith(C, 'm9900', MESSAGE_PAGE));
    expect(screen.getByRole('button', { name: 'Loading earlier messages…' })).toBeDisabled();
    await waitFor(() => expect(screen.getByText('Message number 9900')).toBeInTheDocument());

    await act(async () => page.resolve({ messages: range(9800, 9900), hasOlder: true, hasNewer: true }));
    expect(screen.getByRole('log', { name: 'Conversation' })).toHaveAttribute('data-items', '200');
    // The person still sees the same message at the same place: the scroll moved by what was put above it.
    // The view did not stay at the very top (where it would ask for page after
    // page): it moved down by what was put above. (Where exactly a row stays
    // needs real layout: the end-to-end test checks it in Chromium.)
    expect(el.scrollTop).toBeGreaterThan(0);
    expect(screen.queryByText('Message number 9800')).not.toBeInTheDocument();
    expect(api.getMessagesPage).toHaveBeenCalledTimes(1);

    // Events for the open conversation keep arriving at the end.
    act(() => handleTaskMessage({ conversationId: C, taskId: 't', message: message('new', C, { content: 'Fresh news', seq: 20000 }) }));
    expect(screen.getByRole('log', { name: 'Conversation' })).toHaveAttribute('data-items', '201');
  });

  it('the fallback button loads the earliest page, after which it is gone', async () => {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(C, range(100, 200), true);
    vi.mocked(api.getMessagesPage).mockResolvedValue({ messages: range(0, 100), hasOlder: false, hasNewer: true });
    render(<MessageList conversationId={C} />);
    act(() => screen.getByRole('button', { name: 'Load earlier messages' }).click());
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' })).toHaveAttribute('data-items', '200'));
    expect(screen.queryByRole('button', { name: /earlier messages/ })).not.toBeInTheDocument();
  });

  it('an older page that fails is not asked for again by itself; the button asks again', async () => {
    holdLatest();
    vi.mocked(api.getMessagesPage).mockRejectedValueOnce(new Error('database is locked'));
    render(<MessageList conversationId={C} />);
    const el = scroller();
    act(() => {
      el.scrollTop = 0;
      fireEvent.scroll(el);
    });
    await waitFor(() => expect(api.getMessagesPage).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Load earlier messages' })).toBeEnabled());
    act(() => fireEvent.scroll(el));
    // Whatever the scroll (the failure) would start has had its time: no further call.
    vi.useFakeTimers();
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    expect(api.getMessagesPage).toHaveBeenCalledTimes(1);
    vi.mocked(api.getMessagesPage).mockResolvedValueOnce({ messages: range(9800, 9900), hasOlder: false, hasNewer: true });
    act(() => screen.getByRole('button', { name: 'Load earlier messages' }).click());
    await waitFor(() => expect(screen.getByRole('log', { name: 'Conversation' })).toHaveAttribute('data-items', '200'));
  });

  it('a jump far back shows the message; Jump to latest opens the latest again', async () => {
    holdLatest();
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Message number 9999')).toBeInTheDocument();

    vi.mocked(api.getMessagesAround).mockResolvedValueOnce({ messages: range(1950, 2050), hasOlder: true, hasNewer: true });
    vi.mocked(api.getMessagesAfter).mockResolvedValue({ messages: range(2050, 2150), hasOlder: true, hasNewer: true });
    await act(async () => void (await jumpToMessage(C, 'm2000')));
    await waitFor(() => expect(screen.getByText('Message number 2000')).toBeInTheDocument());
    expect(screen.queryByText('Message number 9999')).not.toBeInTheDocument();
    // The message jumped to is marked (a search opened it), and only it.
    expect(screen.getByText('Message number 2000').closest('[data-found]')).not.toBeNull();
    expect(screen.getByText('Message number 2001').closest('[data-found]')).toBeNull();
    const jump = screen.getByRole('button', { name: /Jump to latest/ });

    vi.mocked(api.loadConversation).mockResolvedValueOnce(latestView());
    await act(async () => jump.click());
    await waitFor(() => expect(screen.getByText('Message number 9999')).toBeInTheDocument());
    expect(api.loadConversation).toHaveBeenCalledWith(C);
  });

  it('Home shows the very first message at once, however many pages back; End the latest again', async () => {
    holdLatest();
    render(<MessageList conversationId={C} />);
    vi.mocked(api.getMessagesAfter).mockResolvedValueOnce({ messages: range(0, 100), hasOlder: false, hasNewer: true });

    act(() => void fireEvent.keyDown(scroller(), { key: 'Home' }));
    await waitFor(() => expect(screen.getByText('Message number 0')).toBeInTheDocument());
    expect(api.getMessagesAfter).toHaveBeenCalledWith(C, '', MESSAGE_PAGE);
    expect(api.getMessagesPage).not.toHaveBeenCalled();
    expect(screen.queryByText('Message number 9999')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /earlier messages/ })).not.toBeInTheDocument();

    vi.mocked(api.loadConversation).mockResolvedValueOnce(latestView());
    act(() => void fireEvent.keyDown(scroller(), { key: 'End' }));
    await waitFor(() => expect(screen.getByText('Message number 9999')).toBeInTheDocument());
    expect(api.loadConversation).toHaveBeenCalledWith(C);
  });
});

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary } from '../../api/types';
import { conversation, deferred, message, resetStores, summary, NOTHING_USED } from '../../test/fixtures';
import { fakeClock } from '../../test/fakeClock';

import * as api from '../../api';
import { loadFirstConversations } from '../../stores/conversationList';
import { CONVERSATION_PAGE } from '../../api/pageSizes';
import { useConversationsStore } from '../../stores/conversations';
import { handleConversationUpdated, handleTaskMessage } from '../../stores/sync';
import { Sidebar } from './Sidebar';

/** Conversation i of a history, newest first: i = 0 is the newest. */
function nth(i: number): ConversationSummary {
  const at = new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString();
  return summary(`c${i}`, { title: `Conversation ${i}`, updatedAt: at, createdAt: at });
}

function pageOf(from: number, to: number, more: boolean) {
  const items: ConversationSummary[] = [];
  for (let i = from; i < to; i++) items.push(nth(i));
  return { items, nextCursor: more ? `after-${to}` : '' };
}

function list() {
  return screen.getByRole('navigation', { name: 'Conversation list' });
}

function titles(): string[] {
  return within(list())
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.conv-title')?.textContent ?? '');
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ ...NOTHING_USED, conversation: conversation(id), messages: [], tasks: [] }));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Sidebar in pages', () => {
  it('shows the newest conversations first; the rows below the view come once it is painted', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValueOnce(pageOf(0, 50, true));
    await loadFirstConversations();
    render(<Sidebar />);
    expect(titles()[0]).toBe('Conversation 0');
    const first = titles().length;
    await waitFor(() => expect(titles().length).toBeGreaterThan(first));
    expect(titles()[0]).toBe('Conversation 0');
  });

  it('shows the first page and reads the next as the person scrolls to the end', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValueOnce(pageOf(0, 50, true));
    await loadFirstConversations();
    expect(api.listConversationsPage).toHaveBeenCalledWith('', '', CONVERSATION_PAGE);
    const next = deferred<Awaited<ReturnType<typeof api.listConversationsPage>>>();
    vi.mocked(api.listConversationsPage).mockReturnValueOnce(next.promise);
    render(<Sidebar />);
    expect(list().querySelector('ul')).toHaveAttribute('data-count', '50');
    expect(titles()[0]).toBe('Conversation 0');

    act(() => {
      list().scrollTop = 50 * 38;
      fireEvent.scroll(list());
    });
    await waitFor(() => expect(api.listConversationsPage).toHaveBeenCalledWith('', 'after-50', CONVERSATION_PAGE));
    expect(screen.getByRole('button', { name: 'Loading…' })).toBeDisabled();
    await act(async () => next.resolve(pageOf(50, 60, false)));
    expect(list().querySelector('ul')).toHaveAttribute('data-count', '60');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.listConversationsPage).toHaveBeenCalledTimes(2);
  });

  it('new and updated conversations still come to the top; one found beyond the pages waits for its page', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValueOnce(pageOf(0, 3, true));
    await loadFirstConversations();
    render(<Sidebar />);
    expect(titles()).toEqual(['Conversation 0', 'Conversation 1', 'Conversation 2']);
    act(() => handleConversationUpdated(conversation('fresh', { title: 'Fresh', updatedAt: '2026-02-01T00:00:00Z' })));
    act(() =>
      handleTaskMessage({ conversationId: 'c2', taskId: 't', message: message('m', 'c2', { createdAt: '2026-03-01T00:00:00Z' }) }),
    );
    expect(titles()).toEqual(['Conversation 2', 'Fresh', 'Conversation 0', 'Conversation 1']);
    // Known from elsewhere (a search) but older than the pages reached: not shown in the list yet.
    act(() => useConversationsStore.getState().upsert(nth(40)));
    expect(titles()).not.toContain('Conversation 40');
  });

  it('the search box asks Go, once typing pauses, and shows its matches; clearing it shows the list again', async () => {
    // On a fake clock typing takes no time, and the pause comes as Testing Library waits.
    const user = fakeClock();
    const search = vi.mocked(api.listConversationsPage);
    search.mockImplementation(async (query, cursor) => {
      if (query === '') return cursor ? pageOf(3, 60, true) : pageOf(0, 3, true);
      return query === '1234' ? { items: [nth(1234)], nextCursor: '' } : { items: [], nextCursor: '' };
    });
    await loadFirstConversations();
    render(<Sidebar />);
    const box = screen.getByRole('searchbox', { name: 'Search conversations' });
    await user.type(box, '1234');
    await waitFor(() => expect(titles()).toEqual(['Conversation 1234']));
    // One call for the whole word, not one per key.
    const searches = () => search.mock.calls.filter(([q]) => q !== '');
    expect(searches()).toEqual([['1234', '', CONVERSATION_PAGE, '', false]]);

    await user.type(box, 'x');
    await waitFor(() => expect(screen.getByText('No conversations match.')).toBeInTheDocument());
    expect(search).toHaveBeenLastCalledWith('1234x', '', CONVERSATION_PAGE, '', false);

    await user.clear(box);
    // The list as its pages reached it: the match, far older, waits for its page.
    await waitFor(() => expect(titles().slice(0, 3)).toEqual(['Conversation 0', 'Conversation 1', 'Conversation 2']));
    expect(titles()).not.toContain('Conversation 1234');
    expect(searches()).toHaveLength(2);
  });

  it('a page that fails is not asked for again by itself; Load more asks again', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValueOnce(pageOf(0, 3, true));
    await loadFirstConversations();
    vi.mocked(api.listConversationsPage).mockRejectedValueOnce(new Error('database is locked'));
    render(<Sidebar />);
    await waitFor(() => expect(api.listConversationsPage).toHaveBeenCalledTimes(2));
    const button = await screen.findByRole('button', { name: 'Load more' });
    // Whatever the scroll (the failure) would start has had its time: no further call.
    vi.useFakeTimers();
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    expect(api.listConversationsPage).toHaveBeenCalledTimes(2);
    vi.mocked(api.listConversationsPage).mockResolvedValueOnce(pageOf(3, 6, false));
    await userEvent.click(button);
    await waitFor(() => expect(list().querySelector('ul')).toHaveAttribute('data-count', '6'));
    expect(api.listConversationsPage).toHaveBeenCalledTimes(3);
  });
});

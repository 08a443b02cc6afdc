import { act, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchHit } from '../../api/types';
import { conversation, deferred, message, resetStores, NOTHING_USED } from '../../test/fixtures';
import { fakeClock } from '../../test/fakeClock';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { useAppShortcuts } from '../shortcuts/useAppShortcuts';
import { SearchDialog } from './SearchDialog';
import { useSearchDialog } from './searchDialog';

function hit(id: string, conv: string, over: Partial<SearchHit> = {}): SearchHit {
  return {
    conversationId: conv,
    conversationTitle: `Title ${conv}`,
    messageId: id,
    role: 'assistant',
    snippet: [{ text: 'the ' }, { text: 'plum', match: true }, { text: ' tree' }],
    createdAt: '2026-02-03T10:00:00Z',
    ...over,
  };
}

function Harness() {
  useAppShortcuts();
  return (
    <>
      <textarea aria-label="Message" />
      <SearchDialog />
    </>
  );
}

beforeEach(() => {
  resetStores();
  useSearchDialog.getState().close();
  vi.clearAllMocks();
});

// The search waits for typing to pause: on a fake clock, typing takes no time
// and the pause comes as Testing Library waits, however busy the machine.
let user: ReturnType<typeof fakeClock>;
beforeEach(() => {
  user = fakeClock();
});

describe('search dialog', () => {
  it('opens with Ctrl+K and Cmd+K, closes with Esc and gives focus back', async () => {
    render(<Harness />);
    const composer = screen.getByRole('textbox', { name: 'Message' });
    composer.focus();
    await user.keyboard('{Control>}k{/Control}');
    const dialog = screen.getByRole('dialog', { name: 'Search' });
    expect(within(dialog).getByRole('textbox', { name: 'Search conversations' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(composer).toHaveFocus();
    await user.keyboard('{Meta>}k{/Meta}');
    expect(screen.getByRole('dialog', { name: 'Search' })).toBeInTheDocument();
  });

  it('searches as the person types, shows only the answer to the latest text, and marks matches as text', async () => {
    const first = deferred<SearchHit[]>();
    vi.mocked(api.searchMessages).mockImplementation((q: string) =>
      q === 'pl' ? first.promise : Promise.resolve([hit('m1', 'c1', { snippet: [{ text: '<img src=x onerror=alert(1)> ' }, { text: 'plum', match: true }] })]),
    );
    render(<Harness />);
    act(() => useSearchDialog.getState().show());
    const box = screen.getByRole('textbox', { name: 'Search conversations' });
    await user.type(box, 'pl');
    await waitFor(() => expect(api.searchMessages).toHaveBeenCalledWith('pl'));
    await user.type(box, 'um');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    // The answer to "pl" arrives late: it is dropped.
    await act(async () => first.resolve([hit('old1', 'c9'), hit('old2', 'c9')]));
    expect(screen.getAllByRole('option')).toHaveLength(1);
    const option = screen.getByRole('option');
    expect(option).toHaveTextContent('Title c1');
    expect(option.querySelector('mark')).toHaveTextContent('plum');
    expect(option.querySelector('img')).toBeNull();
    expect(option).toHaveTextContent('<img src=x onerror=alert(1)>');
    // Typing fast searches once for the whole word, not per letter.
    expect(vi.mocked(api.searchMessages).mock.calls.map((c) => c[0])).toEqual(['pl', 'plum']);
  });

  it('says when nothing is found and when a search fails', async () => {
    vi.mocked(api.searchMessages).mockResolvedValueOnce([]).mockRejectedValueOnce(new Error('the disk is on fire'));
    render(<Harness />);
    act(() => useSearchDialog.getState().show());
    const box = screen.getByRole('textbox', { name: 'Search conversations' });
    await user.type(box, 'zzz');
    expect(await screen.findByRole('status')).toHaveTextContent('No messages found');
    await user.type(box, 'q');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('the disk is on fire'));
  });

  it('arrows move and Enter opens the conversation at the message', async () => {
    vi.mocked(api.searchMessages).mockResolvedValue([hit('m1', 'c1'), hit('m2', 'c2'), hit('m3', 'c3')]);
    vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ ...NOTHING_USED, conversation: conversation(id), messages: [message('latest', id)], tasks: [], hasOlder: true }));
    vi.mocked(api.getMessagesAround).mockImplementation(async (id, mid) => ({ messages: [message(mid, id, { content: 'the plum tree' })], hasOlder: true, hasNewer: true }));
    render(<Harness />);
    act(() => useSearchDialog.getState().show());
    await user.type(screen.getByRole('textbox', { name: 'Search conversations' }), 'plum');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowUp}{ArrowUp}');
    expect(screen.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(api.getMessagesAround).toHaveBeenCalledWith('c2', 'm2', expect.any(Number)));
    expect(useConversationsStore.getState().selectedId).toBe('c2');
    await waitFor(() => expect(useMessagesStore.getState().byConversation.c2?.focusId).toBe('m2'));
  });
});

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, message, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { useTasksStore } from '../../stores/tasks';
import { ChatHeader } from '../chat/ChatHeader';
import { Sidebar } from './Sidebar';

function titles(name: string) {
  const nav = screen.getByRole('navigation', { name });
  return within(nav)
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.conv-title')?.textContent);
}

/** A window as wide as the query says (the test DOM has no layout: matchMedia is faked). */
function windowWidth(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  windowWidth(false);
  useConversationsStore.getState().setAll([
    summary('a', { title: 'Alpha', updatedAt: '2026-01-01T10:00:00Z' }),
    summary('b', { title: 'Beta', updatedAt: '2026-01-01T11:00:00Z' }),
  ]);
  useConversationsStore.getState().select('a');
});

afterEach(() => vi.unstubAllGlobals());

describe('Archive and the Archived view', () => {
  it('Archive takes the conversation out of the list; Archived shows it, searchable; Restore brings it back', async () => {
    vi.mocked(api.archiveConversation).mockResolvedValue(conversation('a', { title: 'Alpha', archived: true }));
    render(
      <>
        <Sidebar />
        <ChatHeader conversationId="a" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Archive' }));
    expect(api.archiveConversation).toHaveBeenCalledWith('a', false);
    await waitFor(() => expect(titles('Conversation list')).toEqual(['Beta']));
    expect(screen.getByText('Archived', { selector: '.state-chip' })).toBeInTheDocument();

    vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [summary('a', { title: 'Alpha', archived: true })], nextCursor: '' });
    await userEvent.click(screen.getByRole('button', { name: 'Archived' }));
    expect(screen.getByRole('button', { name: 'Archived' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(titles('Archived conversations')).toEqual(['Alpha']));
    expect(api.listConversationsPage).toHaveBeenLastCalledWith('', '', expect.any(Number), '', true);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'alp');
    await waitFor(() => expect(api.listConversationsPage).toHaveBeenLastCalledWith('alp', '', expect.any(Number), '', true));

    vi.mocked(api.restoreConversation).mockResolvedValue(conversation('a', { title: 'Alpha', archived: false }));
    await userEvent.click(screen.getByRole('button', { name: 'Restore' }));
    expect(api.restoreConversation).toHaveBeenCalledWith('a');
    await waitFor(() => expect(titles('Archived conversations')).toEqual([]));
    expect(screen.getByRole('button', { name: 'Archive' })).toBeInTheDocument();
  });

  it('a conversation whose task is unfinished is archived only after the person confirms stopping it', async () => {
    act(() => useTasksStore.getState().apply(task('t1', 'a', { status: 'waiting_user' }), 'snapshot'));
    vi.mocked(api.archiveConversation).mockResolvedValue(conversation('a', { archived: true }));
    render(
      <>
        <ChatHeader conversationId="a" />
        <ConfirmDialog />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Archive' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop the task and archive?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep working' }));
    expect(api.archiveConversation).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Archive' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Stop and archive' }));
    expect(api.archiveConversation).toHaveBeenCalledWith('a', true);
  });
});

describe('More actions', () => {
  it('in a narrow window Compact now, Export, Archive and Delete are a menu, not buttons; arrows move, Esc gives the focus back', async () => {
    windowWidth(true);
    act(() => {
      useMessagesStore.getState().beginLoad('a');
      useMessagesStore.getState().finishLoad('a', [message('m1', 'a', { content: 'Hello' })]);
    });
    vi.mocked(api.archiveConversation).mockResolvedValue(conversation('a', { archived: true }));
    vi.mocked(api.compactNow).mockResolvedValue(message('n1', 'a', { role: 'system', summaryId: 's1' }));
    render(<ChatHeader conversationId="a" />);
    for (const name of ['Archive', 'Delete conversation', 'Export', 'Compact now']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    // The most used stay in the header.
    expect(screen.getByRole('button', { name: 'Memory' })).toBeVisible();

    const more = screen.getByRole('button', { name: 'More actions' });
    await userEvent.click(more);
    const menu = screen.getByRole('menu', { name: 'More actions' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((m) => m.textContent)).toEqual(['Compact now', 'Export as Markdown', 'Export as JSON', 'Archive', 'Delete conversation']);
    for (const item of items) expect(item).toBeVisible();
    expect(items[0]).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(items[2]).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(items[4]).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(more).toHaveFocus();

    await userEvent.click(more);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Compact now' }));
    expect(api.compactNow).toHaveBeenCalledWith('a');
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(more);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Archive' }));
    expect(api.archiveConversation).toHaveBeenCalledWith('a', false);
  });

  it('Compact now in the menu waits while a task runs', async () => {
    windowWidth(true);
    act(() => {
      useMessagesStore.getState().beginLoad('a');
      useMessagesStore.getState().finishLoad('a', [message('m1', 'a', { content: 'Hello' })]);
      useTasksStore.getState().apply(task('t1', 'a', { status: 'running' }), 'snapshot');
    });
    render(<ChatHeader conversationId="a" />);
    await userEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(screen.getByRole('menuitem', { name: 'Compact now' })).toBeDisabled();
    expect(screen.getByRole('menuitem', { name: 'Export as Markdown' })).toHaveFocus();
  });

  it('in a wide window the actions are buttons and there is no menu', () => {
    render(<ChatHeader conversationId="a" />);
    expect(screen.getByRole('button', { name: 'Archive' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete conversation' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
  });
});

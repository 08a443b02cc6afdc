import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, message, resetStores, summary, task, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { useDeleteRequest } from './deleteRequest';
import { Sidebar } from './Sidebar';

function list() {
  return screen.getByRole('navigation', { name: 'Conversation list' });
}

function row(title: string) {
  return within(list()).getByRole('button', { name: new RegExp(`^${title}`) });
}

beforeEach(() => {
  resetStores();
  useDeleteRequest.getState().close();
  vi.clearAllMocks();
  vi.mocked(api.loadConversation).mockImplementation(async (id) => ({
    ...NOTHING_USED,
    conversation: conversation(id, { title: useConversationsStore.getState().byId[id]?.title ?? '' }),
    messages: [],
    tasks: [],
  }));
  useConversationsStore.getState().setAll([
    summary('a', { title: 'Alpha', updatedAt: '2026-01-01T10:00:00Z' }),
    summary('b', { title: 'Beta', updatedAt: '2026-01-01T11:00:00Z' }),
    summary('c', { title: 'Gamma', updatedAt: '2026-01-01T09:00:00Z' }),
  ]);
  useConversationsStore.getState().select('a');
});

describe('Sidebar', () => {
  it('lists conversations newest activity first, and moves one up when a message arrives', () => {
    render(<Sidebar />);
    const titles = () => within(list()).getAllByRole('listitem').map((li) => li.querySelector('.conv-title')?.textContent);
    expect(titles()).toEqual(['Beta', 'Alpha', 'Gamma']);
    act(() =>
      handleTaskMessage({ conversationId: 'c', taskId: 't', message: message('m', 'c', { createdAt: '2026-01-01T12:00:00Z' }) }),
    );
    expect(titles()).toEqual(['Gamma', 'Beta', 'Alpha']);
  });

  it('keeps the list still while the pointer is over it, so a click lands on the row aimed at', async () => {
    render(<Sidebar />);
    const titles = () => within(list()).getAllByRole('listitem').map((li) => li.querySelector('.conv-title')?.textContent);
    await userEvent.hover(row('Alpha'));
    act(() =>
      handleTaskMessage({ conversationId: 'c', taskId: 't', message: message('m', 'c', { createdAt: '2026-01-01T12:00:00Z' }) }),
    );
    expect(titles()).toEqual(['Beta', 'Alpha', 'Gamma']);
    await userEvent.click(row('Beta'));
    expect(useConversationsStore.getState().selectedId).toBe('b');
    await userEvent.unhover(list());
    expect(titles()).toEqual(['Gamma', 'Beta', 'Alpha']);
  });

  it('shows the running task\'s plan on its row, live, and not once the task has ended', () => {
    render(<Sidebar />);
    const steps = [
      { title: 'Read the notes', status: 'done' as const },
      { title: 'Write the summary', status: 'in_progress' as const },
    ];
    const plan = { taskId: 'tb', conversationId: 'b', revision: 1, steps, updatedAt: '2026-01-01T10:00:00Z' };
    act(() => handleTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 2, plan, rev: 1 })));
    expect(row('Beta')).toHaveTextContent('Plan · 1 of 2 · Write the summary');
    const done = { ...plan, revision: 2, steps: steps.map((s) => ({ ...s, status: 'done' as const })) };
    act(() => handleTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 3, plan: done, rev: 2 })));
    expect(row('Beta')).toHaveTextContent('Plan · 2 of 2');
    act(() => handleTaskUpdate(task('tb', 'b', { status: 'completed', stepCount: 3, plan: done, rev: 3 })));
    expect(row('Beta')).not.toHaveTextContent('Plan ·');
  });

  it('marks a running task, a question waiting and unread messages; opening clears unread', async () => {
    render(<Sidebar />);
    act(() => handleTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 1 })));
    expect(row('Beta')).toHaveTextContent('Working');
    expect(row('Beta').querySelector('.live-dot')).not.toBeNull();

    act(() => {
      handleTaskMessage({ conversationId: 'b', taskId: 'tb', message: message('q', 'b') });
      handleTaskUpdate(task('tb', 'b', { status: 'waiting_user', stepCount: 1, pendingQuestion: 'Which?' }));
    });
    expect(row('Beta')).not.toHaveTextContent('Working');
    expect(row('Beta')).toHaveTextContent('Needs input');
    expect(row('Beta')).toHaveTextContent('1 unread');
    expect(row('Alpha')).not.toHaveTextContent(/unread|Needs input/);

    await userEvent.click(row('Beta'));
    expect(row('Beta')).toHaveAttribute('aria-current', 'true');
    expect(row('Beta')).not.toHaveTextContent('unread');
    // The question still waits for an answer.
    expect(row('Beta')).toHaveTextContent('Needs input');
  });

  it('renames from the list: Enter saves, Esc cancels', async () => {
    vi.mocked(api.renameConversation).mockResolvedValue(conversation('c', { title: 'Renamed', titleSet: true }));
    render(<Sidebar />);
    await userEvent.click(screen.getByRole('button', { name: 'Rename Gamma' }));
    const input = screen.getByRole('textbox', { name: 'New title' });
    expect(input).toHaveValue('Gamma');
    await userEvent.clear(input);
    await userEvent.type(input, 'Renamed{Enter}');
    expect(api.renameConversation).toHaveBeenCalledWith('c', 'Renamed');
    await waitFor(() => expect(row('Renamed')).toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Rename Alpha' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'New title' }), 'x{Escape}');
    expect(api.renameConversation).toHaveBeenCalledTimes(1);
    expect(row('Alpha')).toBeInTheDocument();
  });

  it('keyboard: one tab stop, arrows move between rows, F2 renames, Delete asks', async () => {
    render(<Sidebar />);
    // The open conversation holds the list's tab stop.
    expect(row('Alpha')).toHaveAttribute('tabindex', '0');
    expect(row('Beta')).toHaveAttribute('tabindex', '-1');
    row('Alpha').focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(row('Gamma')).toHaveFocus();
    await userEvent.keyboard('{Home}');
    expect(row('Beta')).toHaveFocus();
    expect(row('Beta')).toHaveAttribute('tabindex', '0');
    await userEvent.keyboard('{F2}');
    expect(screen.getByRole('textbox', { name: 'New title' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(row('Beta')).toHaveFocus());
    await userEvent.keyboard('{Delete}');
    expect(screen.getByRole('alertdialog', { name: 'Delete “Beta”?' })).toBeInTheDocument();
  });

  it('delete asks first; Cancel and Esc keep the conversation', async () => {
    render(<Sidebar />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Gamma' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete “Gamma”?' });
    expect(dialog).toHaveTextContent('cannot be undone');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Gamma' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.deleteConversation).not.toHaveBeenCalled();
    expect(row('Gamma')).toBeInTheDocument();
  });

  it('closing the delete dialog gives the focus back to the button that opened it', async () => {
    render(<Sidebar />);
    const opener = screen.getByRole('button', { name: 'Delete Gamma' });
    await userEvent.click(opener);
    expect(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('deleting a conversation whose task runs says it stops the task first', async () => {
    vi.mocked(api.deleteConversation).mockResolvedValue(undefined);
    render(<Sidebar />);
    act(() => handleTaskUpdate(task('tc', 'c', { status: 'tool_executing', stepCount: 2, currentTool: 'shell' })));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Gamma' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Deleting stops the task first');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop task and delete' }));
    // Go's DeleteConversation stops the task, then deletes.
    expect(api.deleteConversation).toHaveBeenCalledWith('c');
    await waitFor(() => expect(within(list()).queryByRole('button', { name: /^Gamma/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('thousands of conversations: only the rows in view are rendered; End reaches the last one', async () => {
    useConversationsStore.getState().setAll(
      Array.from({ length: 5000 }, (_, i) =>
        summary(`k${i}`, { title: `Chat ${i}`, updatedAt: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString() }),
      ),
    );
    useConversationsStore.getState().select('k0');
    render(<Sidebar />);
    const items = within(list()).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThan(100);
    expect(row('Chat 0')).toHaveAttribute('aria-current', 'true');
    row('Chat 0').focus();
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(row('Chat 4999')).toHaveFocus());
    expect(within(list()).getAllByRole('listitem').length).toBeLessThan(100);
  });
});

import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, resetStores, summary, task } from '../../test/fixtures';

vi.mock('../../api', () => ({
  createConversation: vi.fn(),
  loadConversation: vi.fn(),
  stopTask: vi.fn(),
  deleteConversation: vi.fn(),
  renameConversation: vi.fn(),
}));
vi.mock('../../events', () => ({ subscribeAll: vi.fn(() => () => {}) }));

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskUpdate } from '../../stores/sync';
import { useDeleteRequest } from '../conversations/deleteRequest';
import { Sidebar } from '../conversations/Sidebar';
import { useAppShortcuts } from './useAppShortcuts';

function Harness() {
  useAppShortcuts();
  return (
    <>
      <Sidebar />
      <textarea aria-label="Message" />
      <input aria-label="Other field" onKeyDown={(e) => e.key === 'Escape' && e.preventDefault()} />
    </>
  );
}

beforeEach(() => {
  resetStores();
  useDeleteRequest.getState().close();
  vi.clearAllMocks();
  vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ conversation: conversation(id), messages: [], tasks: [] }));
  vi.mocked(api.stopTask).mockImplementation(async (id) => ({
    stopped: true,
    task: task(id, 'a', { status: 'cancelled' }),
    message: '',
  }));
  useConversationsStore.getState().setAll([summary('a'), summary('b')]);
  useConversationsStore.getState().select('a');
});

describe('app shortcuts', () => {
  it('Esc stops the open conversation’s running task at once, from anywhere', async () => {
    render(<Harness />);
    act(() => handleTaskUpdate(task('t', 'a', { status: 'thinking', stepCount: 1 })));
    await userEvent.keyboard('{Escape}');
    expect(api.stopTask).toHaveBeenCalledWith('t');
    expect(api.stopTask).toHaveBeenCalledTimes(1);
  });

  it('Esc stops a task that waits for an answer, typed into the composer', async () => {
    render(<Harness />);
    act(() => handleTaskUpdate(task('t', 'a', { status: 'waiting_user', stepCount: 1, pendingQuestion: '?' })));
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'hm{Escape}');
    expect(api.stopTask).toHaveBeenCalledWith('t');
  });

  it('Esc does nothing without a task, for another conversation’s task, or once a control handled it', async () => {
    render(<Harness />);
    await userEvent.keyboard('{Escape}');
    act(() => handleTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 1 })));
    await userEvent.keyboard('{Escape}');
    act(() => handleTaskUpdate(task('ta', 'a', { status: 'thinking', stepCount: 1 })));
    await userEvent.type(screen.getByRole('textbox', { name: 'Other field' }), '{Escape}');
    expect(api.stopTask).not.toHaveBeenCalled();
  });

  it('Esc in the delete dialog closes the dialog and does not stop the task', async () => {
    render(<Harness />);
    act(() => handleTaskUpdate(task('t', 'a', { status: 'thinking', stepCount: 1 })));
    act(() => useDeleteRequest.getState().request('a'));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.stopTask).not.toHaveBeenCalled();
  });

  it('Ctrl+N and Cmd+N open a new conversation', async () => {
    let n = 0;
    vi.mocked(api.createConversation).mockImplementation(async () =>
      conversation(`new${++n}`, { updatedAt: `2026-02-0${n}T00:00:00Z` }),
    );
    render(<Harness />);
    await userEvent.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    await userEvent.keyboard('{Meta>}n{/Meta}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new2'));
    expect(api.createConversation).toHaveBeenCalledTimes(2);
  });
});

import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, resetStores, summary, task, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import * as events from '../../events';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { selectConversation, sendMessage } from '../../stores/actions';
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
      <ConfirmDialog />
      <input aria-label="Other field" onKeyDown={(e) => e.key === 'Escape' && e.preventDefault()} />
    </>
  );
}

beforeEach(() => {
  resetStores();
  useDeleteRequest.getState().close();
  vi.clearAllMocks();
  vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ ...NOTHING_USED, conversation: conversation(id), messages: [], tasks: [] }));
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

  it('Esc while typing an answer leaves the box with the text kept; stopping a waiting task asks first', async () => {
    render(<Harness />);
    act(() => handleTaskUpdate(task('t', 'a', { status: 'waiting_user', stepCount: 1, pendingQuestion: '?' })));
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'hm{Escape}');
    expect(api.stopTask).not.toHaveBeenCalled();
    expect(box).toHaveValue('hm');
    expect(box).not.toHaveFocus();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    // Esc again, outside the field: a confirmation, which Esc (or Keep waiting) declines.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog', { name: 'Stop this task?' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.stopTask).not.toHaveBeenCalled();

    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Stop task' }));
    await waitFor(() => expect(api.stopTask).toHaveBeenCalledWith('t'));
    expect(box).toHaveValue('hm');
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
      conversation(`new${++n}`, { title: `Said something ${n}`, updatedAt: `2026-02-0${n}T00:00:00Z` }),
    );
    render(<Harness />);
    await userEvent.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    await userEvent.keyboard('{Meta>}n{/Meta}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new2'));
    expect(api.createConversation).toHaveBeenCalledTimes(2);
  });

  it('Ctrl+N again on an empty conversation opens it rather than storing another', async () => {
    let n = 0;
    vi.mocked(api.createConversation).mockImplementation(async () =>
      conversation(`new${++n}`, { title: '', updatedAt: `2026-02-0${n}T00:00:00Z` }),
    );
    vi.mocked(api.loadConversation).mockImplementation(async (id) => ({
      ...NOTHING_USED,
      conversation: conversation(id, { title: useConversationsStore.getState().byId[id]?.title ?? '' }),
      messages: [],
      tasks: [],
    }));
    render(<Harness />);
    for (let i = 0; i < 3; i++) {
      await userEvent.keyboard('{Control>}n{/Control}');
      await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    }
    expect(api.createConversation).toHaveBeenCalledTimes(1);
    // From another conversation, the empty one is opened again.
    await act(() => selectConversation('a'));
    await userEvent.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    expect(api.createConversation).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+N right after the first message was sent, before Go answered, opens a new conversation', async () => {
    let n = 0;
    vi.mocked(api.createConversation).mockImplementation(async () =>
      conversation(`new${++n}`, { title: '', updatedAt: `2026-02-0${n}T00:00:00Z` }),
    );
    vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ ...NOTHING_USED, conversation: conversation(id, { title: '' }), messages: [], tasks: [] }));
    let answer: (t: ReturnType<typeof task>) => void = () => {};
    vi.mocked(api.send).mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    render(<Harness />);
    await userEvent.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    const sent = sendMessage('new1', 'Find a quiet cafe');
    await userEvent.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new2'));
    expect(api.createConversation).toHaveBeenCalledTimes(2);
    answer(task('t1', 'new1', { status: 'running' }));
    await act(() => sent);
  });

  it('Ctrl+Q quits (Go asks first when tasks are at work)', async () => {
    render(<Harness />);
    await userEvent.keyboard('{Control>}q{/Control}');
    expect(events.quitApp).toHaveBeenCalledTimes(1);
  });
});

describe('keyboard modality', () => {
  it('a navigation key marks the document as keyboard-driven until the next pointer press', async () => {
    render(<Harness />);
    const root = document.documentElement;
    await userEvent.click(screen.getByRole('textbox', { name: 'Message' }));
    expect(root.dataset.input).toBeUndefined();
    await userEvent.keyboard('{ArrowDown}');
    expect(root.dataset.input).toBe('keyboard');
    await userEvent.click(screen.getByRole('textbox', { name: 'Message' }));
    expect(root.dataset.input).toBeUndefined();
  });
});

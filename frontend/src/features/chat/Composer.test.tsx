import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, deferred, message, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { useNoticesStore } from '../../stores/notices';
import { handleTaskUpdate } from '../../stores/sync';
import { useTasksStore } from '../../stores/tasks';
import type { StopResult } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { StatusLine } from './StatusLine';
import { Composer } from './Composer';

const C = 'c1';

function setup() {
  const user = userEvent.setup();
  render(<Composer conversationId={C} />);
  return { user, textbox: screen.getByRole('textbox', { name: 'Message' }) };
}

/** A thinking task, with the composer and the status line; Stop's call answers when the test says. */
function setupStop() {
  handleTaskUpdate(task('t1', C, { status: 'thinking', stepCount: 3 }));
  const stop = deferred<StopResult>();
  vi.mocked(api.stopTask).mockReturnValue(stop.promise);
  const user = userEvent.setup();
  render(
    <>
      <Composer conversationId={C} />
      <StatusLine conversationId={C} />
    </>,
  );
  return { user, stop };
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('Composer', () => {
  it('Enter sends through Send (Go picks the mode) and clears the text', async () => {
    vi.mocked(api.send).mockResolvedValue(task('t1', C, { status: 'running' }));
    const { user, textbox } = setup();
    expect(screen.getByRole('radio', { name: 'Agent' })).toBeChecked();
    await user.type(textbox, 'Plan my week{Enter}');
    expect(api.send).toHaveBeenCalledWith(C, 'Plan my week');
    await waitFor(() => expect(textbox).toHaveValue(''));
    // The returned task is running: Stop appears, and the person may go on typing.
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(textbox).toBeEnabled();
  });

  it('while the agent works, Enter queues the message without stopping the task', async () => {
    handleTaskUpdate(task('t1', C, { status: 'tool_executing', stepCount: 2 }));
    vi.mocked(api.queueMessage).mockResolvedValue(message('q1', C, { delivery: 'queued', taskId: 't1' }));
    useMessagesStore.getState().beginLoad(C);
    useMessagesStore.getState().finishLoad(C, []);
    const { user, textbox } = setup();
    await user.type(textbox, 'Also add a date{Enter}');
    expect(api.queueMessage).toHaveBeenCalledWith(C, 'Also add a date');
    expect(api.send).not.toHaveBeenCalled();
    expect(api.stopTask).not.toHaveBeenCalled();
    await waitFor(() => expect(textbox).toHaveValue(''));
    expect(useMessagesStore.getState().byConversation[C]?.byId['q1']?.delivery).toBe('queued');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
  });

  it('a refused queue keeps the text and says why', async () => {
    handleTaskUpdate(task('t1', C, { status: 'thinking', stepCount: 1 }));
    vi.mocked(api.queueMessage).mockRejectedValue(
      new ApiError('conflict', 'no task is working in this conversation, so there is nothing to add the message to'),
    );
    const { user, textbox } = setup();
    await user.type(textbox, 'Late words');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(useNoticesStore.getState().items).toHaveLength(1));
    expect(useNoticesStore.getState().items[0]?.message).toMatch(/no task is working/);
    expect(textbox).toHaveValue('Late words');
  });

  it('Shift+Enter inserts a newline instead of sending', async () => {
    const { user, textbox } = setup();
    await user.type(textbox, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(textbox).toHaveValue('line one\nline two');
    expect(api.send).not.toHaveBeenCalled();
  });

  it('shows the conversation\'s mode in the Mode radio group', () => {
    useConversationsStore.getState().upsert(conversation(C, { mode: 'chat' }));
    setup();
    const group = screen.getByRole('radiogroup', { name: 'Mode' });
    expect(within(group).getByRole('radio', { name: 'Chat' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Agent' })).not.toBeChecked();
  });

  it('choosing a mode calls SetMode and keeps the choice Go stored', async () => {
    vi.mocked(api.setMode).mockResolvedValue(conversation(C, { mode: 'auto' }));
    const { user } = setup();
    const auto = screen.getByRole('radio', { name: 'Auto' });
    await user.click(auto);
    expect(api.setMode).toHaveBeenCalledWith(C, 'auto');
    await waitFor(() => expect(auto).toBeChecked());
  });

  it('puts the mode back and says so when Go refuses it', async () => {
    vi.mocked(api.setMode).mockRejectedValue(new ApiError('internal', 'disk full'));
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: 'Chat' }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Agent' })).toBeChecked());
    expect(useNoticesStore.getState().items[0]?.message).toMatch(/disk full/);
  });

  it('keeps the typed text and shows an alert when the call fails', async () => {
    vi.mocked(api.send).mockRejectedValue(new ApiError('conflict', 'A task is already running'));
    const { user, textbox } = setup();
    await user.type(textbox, 'do the thing{Enter}');
    await waitFor(() => expect(useNoticesStore.getState().items).toHaveLength(1));
    expect(textbox).toHaveValue('do the thing');
    expect(useNoticesStore.getState().items[0]?.message).toMatch(/already running/);
  });

  it('disables Send while the call is in flight', async () => {
    const pending = deferred<ReturnType<typeof task>>();
    vi.mocked(api.send).mockReturnValue(pending.promise);
    const { user, textbox } = setup();
    await user.type(textbox, 'go');
    const send = screen.getByRole('button', { name: 'Send' });
    await user.click(send);
    expect(send).toBeDisabled();
    await user.click(send);
    expect(api.send).toHaveBeenCalledTimes(1);
    await act(async () => pending.resolve(task('t1', C, { status: 'completed' })));
    await waitFor(() => expect(textbox).toHaveValue(''));
  });

  it('Stop calls StopTask for the active task', async () => {
    handleTaskUpdate(task('t1', C, { status: 'thinking', stepCount: 1 }));
    vi.mocked(api.stopTask).mockResolvedValue({
      stopped: true,
      task: task('t1', C, { status: 'cancelled' }),
      message: '',
    });
    const { user, textbox } = setup();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(api.stopTask).toHaveBeenCalledWith('t1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument());
    expect(textbox).toBeEnabled();
  });

  it("Stop shows the task stopped in the click, before Go answers; Go's copy then replaces it", async () => {
    const { user, stop } = setupStop();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    await act(async () => stop.resolve({ stopped: true, task: task('t1', C, { status: 'cancelled', stepCount: 3, rev: 2, endedAt: '2026-01-01T10:00:07Z' }), message: 'Stopped' }));
    expect(screen.getByRole('status')).toHaveTextContent('took 0:07');
    expect(useNoticesStore.getState().items).toHaveLength(0);
  });

  it('Stop by the keyboard hands the focus to the message box before it goes', async () => {
    const { user } = setupStop();
    const stopButton = screen.getByRole('button', { name: 'Stop' });
    stopButton.focus();
    await user.keyboard('{Enter}');
    expect(stopButton).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });

  it('a click on Stop leaves the focus in the message box all along', async () => {
    const { user } = setupStop();
    const textbox = screen.getByRole('textbox', { name: 'Message' });
    await user.click(textbox);
    const left = vi.fn();
    textbox.addEventListener('blur', left);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(textbox).toHaveFocus();
    expect(left).not.toHaveBeenCalled();
  });

  it('a press on Stop stops the task before the release, once', async () => {
    const { user, stop } = setupStop();
    const stopButton = screen.getByRole('button', { name: 'Stop' });
    await user.pointer({ keys: '[MouseLeft>]', target: stopButton });
    expect(api.stopTask).toHaveBeenCalledTimes(1);
    expect(api.stopTask).toHaveBeenCalledWith('t1');
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    await user.pointer({ keys: '[/MouseLeft]', target: stopButton });
    await act(async () => stop.resolve({ stopped: true, task: task('t1', C, { status: 'cancelled', stepCount: 3, rev: 2 }), message: 'Stopped' }));
    expect(api.stopTask).toHaveBeenCalledTimes(1);
  });

  it('a task waiting for an answer asks at the click, not at the press', async () => {
    handleTaskUpdate(task('t1', C, { status: 'waiting_user', stepCount: 2, pendingQuestion: 'Which city?' }));
    const user = userEvent.setup();
    render(
      <>
        <Composer conversationId={C} />
        <ConfirmDialog />
      </>,
    );
    const stopButton = screen.getByRole('button', { name: 'Stop' });
    await user.pointer({ keys: '[MouseLeft>]', target: stopButton });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await user.pointer({ keys: '[/MouseLeft]', target: stopButton });
    expect(screen.getByRole('alertdialog', { name: 'Stop this task?' })).toBeInTheDocument();
    expect(api.stopTask).not.toHaveBeenCalled();
  });

  it('a Stop that fails puts the task back as it was, Stop and all, and says why', async () => {
    const { user, stop } = setupStop();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    await act(async () => stop.reject(new ApiError('internal', 'the database is locked')));
    expect(screen.getByRole('status')).toHaveTextContent('Thinking…');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeEnabled();
    expect(useNoticesStore.getState().items[0]?.message).toMatch(/the database is locked/);
  });

  it('Stop on an already-finished task shows the message, not an error', async () => {
    handleTaskUpdate(task('t1', C, { status: 'running' }));
    vi.mocked(api.stopTask).mockResolvedValue({
      stopped: false,
      task: task('t1', C, { status: 'completed' }),
      message: 'Task already completed',
    });
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(useNoticesStore.getState().items[0]?.message).toBe('Task already completed'));
    expect(useNoticesStore.getState().items[0]?.kind).toBe('info');
    // The window showed it stopped at the click; it ends as Go says it did.
    expect(useTasksStore.getState().byId['t1']?.status).toBe('completed');
  });

  it('waiting_user: Reply and Stop, question as placeholder; the choices are in the question card, not here', async () => {
    handleTaskUpdate(
      task('t1', C, {
        status: 'waiting_user',
        stepCount: 2,
        pendingQuestion: 'Which city?',
        pendingChoices: ['Paris', 'Rome'],
      }),
    );
    vi.mocked(api.userResponse).mockResolvedValue(undefined);
    const { user, textbox } = setup();
    expect(textbox).toBeEnabled();
    expect(textbox).toHaveAttribute('placeholder', 'Which city?');
    expect(screen.getByRole('button', { name: 'Reply' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rome' })).not.toBeInTheDocument();

    await user.type(textbox, 'Lisbon{Enter}');
    expect(api.userResponse).toHaveBeenCalledWith('t1', 'Lisbon');
  });

  it('waiting_user: typed answer is sent with Reply (and with Enter)', async () => {
    handleTaskUpdate(task('t1', C, { status: 'waiting_user', pendingQuestion: 'Budget?' }));
    vi.mocked(api.userResponse).mockResolvedValue(undefined);
    const { user, textbox } = setup();
    await user.type(textbox, '2000 EUR');
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(api.userResponse).toHaveBeenCalledWith('t1', '2000 EUR');
    await waitFor(() => expect(textbox).toHaveValue(''));
    await user.type(textbox, 'again{Enter}');
    expect(api.userResponse).toHaveBeenLastCalledWith('t1', 'again');
    expect(api.send).not.toHaveBeenCalled();
  });

  it('a conflict on reply keeps the text and reports it', async () => {
    handleTaskUpdate(task('t1', C, { status: 'waiting_user', pendingQuestion: 'Budget?' }));
    vi.mocked(api.userResponse).mockRejectedValue(new ApiError('conflict', 'The task is not waiting for an answer'));
    const { user, textbox } = setup();
    await user.type(textbox, '100{Enter}');
    await waitFor(() => expect(useNoticesStore.getState().items).toHaveLength(1));
    expect(textbox).toHaveValue('100');
  });
});

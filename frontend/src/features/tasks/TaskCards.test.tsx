import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClipboard } from '../../test/clipboard';
import { deferred, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import type { Task } from '../../api/types';
import { useConversationsStore } from '../../stores/conversations';
import { useNoticesStore } from '../../stores/notices';
import { handleTaskUpdate } from '../../stores/sync';
import { useTasksStore } from '../../stores/tasks';
import { Composer } from '../chat/Composer';
import { AgentPanel } from './AgentPanel';

const C = 'c1';

function setup() {
  const user = userEvent.setup();
  render(
    <>
      <AgentPanel conversationId={C} />
      <Composer conversationId={C} />
    </>,
  );
  return user;
}

function update(t: Task) {
  act(() => handleTaskUpdate(t));
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('PauseCard', () => {
  const paused = task('t1', C, {
    status: 'paused',
    stepCount: 50,
    pauseReason: 'steps',
    pendingQuestion: 'Limit reached: 50 steps. Continue for 25 more steps, or stop?',
    limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 1 },
  });

  it('shows the question; Continue calls ContinueTask', async () => {
    vi.mocked(api.continueTask).mockResolvedValue(undefined);
    const user = setup();
    update(paused);
    const card = screen.getByRole('region', { name: 'Task paused' });
    expect(card).toHaveTextContent('Limit reached: 50 steps. Continue for 25 more steps, or stop?');
    expect(card).toHaveTextContent('step limit reached');
    await user.click(within(card).getByRole('button', { name: 'Continue' }));
    expect(api.continueTask).toHaveBeenCalledWith('t1');
    // The task goes on: the card goes away.
    update(task('t1', C, { status: 'thinking', stepCount: 51 }));
    expect(screen.queryByRole('region', { name: 'Task paused' })).not.toBeInTheDocument();
  });

  it('Stop stops the task; meanwhile the composer queues a message and has no second Stop', async () => {
    vi.mocked(api.stopTask).mockResolvedValue({ stopped: true, task: { ...paused, status: 'cancelled' }, message: 'Stopped' });
    const user = setup();
    update(paused);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('placeholder', expect.stringMatching(/Send now/));
    expect(screen.getAllByRole('button', { name: 'Stop' })).toHaveLength(1);
    await user.click(within(screen.getByRole('region', { name: 'Task paused' })).getByRole('button', { name: 'Stop' }));
    expect(api.stopTask).toHaveBeenCalledWith('t1');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Task paused' })).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });

  it('a pause for repeating itself reads so', () => {
    setup();
    update(task('t1', C, { status: 'paused', pauseReason: 'repeat', pendingQuestion: 'The agent made the same call 5 times.' }));
    expect(screen.getByRole('region', { name: 'Task paused' })).toHaveTextContent('the agent repeated the same call');
  });
});

describe('ToolQuestionCard', () => {
  it("an MCP server's form question is shown with its form, answered as JSON", async () => {
    vi.mocked(api.userResponse).mockResolvedValue(undefined);
    const user = setup();
    update(
      task('t1', C, {
        status: 'waiting_user',
        currentTool: 'everything__trigger-elicitation-request',
        pendingQuestion: 'The MCP server everything asks: Your details',
        pendingFields: [{ name: 'name', label: 'Your name', type: 'text', required: true }],
      }),
    );
    const card = screen.getByRole('region', { name: 'everything__trigger-elicitation-request asks' });
    expect(card).toHaveTextContent('The MCP server everything asks: Your details');
    const form = within(card).getByRole('group', { name: 'The MCP server everything asks: Your details' });
    await user.type(within(form).getByRole('textbox', { name: /Your name/ }), 'Ada');
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(api.userResponse).toHaveBeenCalledWith('t1', '{"name":"Ada"}');
  });

  it("the agent's own question stays in the transcript, not in a card", () => {
    setup();
    update(task('t1', C, { status: 'waiting_user', pendingQuestion: 'Which city?' }));
    expect(screen.queryByRole('region', { name: /asks$/ })).not.toBeInTheDocument();
  });
});

describe('FailedCard', () => {
  const failed = task('t1', C, {
    status: 'error',
    stepCount: 3,
    errorMessage: 'The model server failed: 503 Service Unavailable',
    endedAt: '2026-01-01T10:05:00Z',
  });

  it('shows the error readably; Retry resumes the same task', async () => {
    vi.mocked(api.retryTask).mockResolvedValue({ ...failed, status: 'running', errorMessage: undefined, endedAt: undefined });
    const user = setup();
    update(failed);
    const card = screen.getByRole('region', { name: 'Task failed' });
    expect(card).toHaveTextContent('The model server failed: 503 Service Unavailable');
    await user.click(within(card).getByRole('button', { name: 'Retry' }));
    expect(api.retryTask).toHaveBeenCalledWith('t1');
    // The ended task came back to life from Retry's answer.
    await waitFor(() => expect(useTasksStore.getState().activeByConversation[C]).toBe('t1'));
    expect(screen.queryByRole('region', { name: 'Task failed' })).not.toBeInTheDocument();
    // Working again: what the person types now is queued for its next step.
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
  });

  it('Copy details copies the error, the task id, the model and when it failed', async () => {
    const user = setup();
    const writeText = mockClipboard();
    update(failed);
    const card = screen.getByRole('region', { name: 'Task failed' });
    await user.click(within(card).getByRole('button', { name: 'Copy details' }));
    expect(writeText).toHaveBeenCalledWith(
      [
        'Error: The model server failed: 503 Service Unavailable',
        'Task: t1',
        'Model: test-model',
        'Time: 2026-01-01T10:05:00Z',
      ].join('\n'),
    );
  });

  it('updates that arrive before Retry answers revive it too, and later stale ones cannot', async () => {
    const pending = deferred<Task>();
    vi.mocked(api.retryTask).mockReturnValue(pending.promise);
    const user = setup();
    update(failed);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    update(task('t1', C, { status: 'running', stepCount: 3 }));
    update(task('t1', C, { status: 'thinking', stepCount: 4 }));
    update(task('t1', C, { status: 'error', stepCount: 4, errorMessage: 'again', endedAt: '2026-01-01T10:06:00Z' }));
    await act(async () => pending.resolve({ ...failed, status: 'running', errorMessage: undefined, endedAt: undefined }));
    expect(useTasksStore.getState().byId.t1?.status).toBe('error');
    expect(screen.getByRole('region', { name: 'Task failed' })).toHaveTextContent('again');
  });

  it('a failed Retry leaves the card and says why', async () => {
    vi.mocked(api.retryTask).mockRejectedValue(new Error('boom'));
    const user = setup();
    update(failed);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(useNoticesStore.getState().items.map((n) => n.message)).toEqual(['Could not retry the task: boom']),
    );
    expect(screen.getByRole('region', { name: 'Task failed' })).toBeInTheDocument();
    // A late update cannot revive it now.
    update(task('t1', C, { status: 'thinking', stepCount: 3 }));
    expect(useTasksStore.getState().byId.t1?.status).toBe('error');
  });

  it('a new task replaces the failed card', () => {
    setup();
    update(failed);
    update(task('t2', C, { status: 'running', startedAt: '2026-01-01T11:00:00Z' }));
    expect(screen.queryByRole('region', { name: 'Task failed' })).not.toBeInTheDocument();
  });
});

describe('InterruptedCard', () => {
  const interrupted = task('t1', C, { status: 'interrupted', stepCount: 4 });

  it('says so; Resume calls ResumeTask and takes its answer', async () => {
    vi.mocked(api.resumeTask).mockResolvedValue({ ...interrupted, status: 'running' });
    const user = setup();
    update(interrupted);
    const card = screen.getByRole('region', { name: 'Task interrupted' });
    expect(card).toHaveTextContent('Interrupted when Errand closed');
    await user.click(within(card).getByRole('button', { name: 'Resume' }));
    expect(api.resumeTask).toHaveBeenCalledWith('t1');
    await waitFor(() => expect(useTasksStore.getState().byId.t1?.status).toBe('running'));
    expect(screen.queryByRole('region', { name: 'Task interrupted' })).not.toBeInTheDocument();
  });

  it('Resume does not undo an approval that arrived first', async () => {
    const pending = deferred<Task>();
    vi.mocked(api.resumeTask).mockReturnValue(pending.promise);
    const user = setup();
    update(interrupted);
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    update(
      task('t1', C, {
        status: 'waiting_approval',
        stepCount: 4,
        pendingApproval: { callId: 'c', tool: 'write_file', risk: 'writes', arguments: '{}' },
      }),
    );
    await act(async () => pending.resolve({ ...interrupted, status: 'running' }));
    expect(useTasksStore.getState().byId.t1?.status).toBe('waiting_approval');
    expect(screen.getByRole('region', { name: 'Approval needed' })).toBeInTheDocument();
  });

  it('Dismiss ends it and frees the composer', async () => {
    vi.mocked(api.dismissTask).mockResolvedValue({ ...interrupted, status: 'cancelled', endedAt: '2026-01-01T10:09:00Z' });
    const user = setup();
    update(interrupted);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(api.dismissTask).toHaveBeenCalledWith('t1');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Task interrupted' })).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });

  it('the composer explains that the interrupted task holds the conversation', async () => {
    const user = setup();
    update(interrupted);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(/interrupted when Errand closed still holds this conversation: resume or dismiss it above/);
    expect(screen.getByText(/resume or dismiss it above to start a new one/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(api.send).not.toHaveBeenCalled();
  });
});

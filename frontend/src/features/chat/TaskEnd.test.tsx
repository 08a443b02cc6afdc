// Where a finished task's "Files changed" shows in the transcript: on the
// Task complete card once the reflection accepted the completion (never
// while it checks, never for an attempt it found unmet), and at the notice
// that ended a stopped task, still there after the next task started.
import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FilesChanged, Message, ToolOutcome } from '../../api/types';
import { message, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { MessageList } from './MessageList';

const C = 'c1';
const ONE = (taskId: string): FilesChanged => ({
  taskId,
  undone: false,
  pruned: false,
  dismissed: false,
  notUndoable: [],
  files: [{ path: 'notes.txt', change: 'created' }],
});

function msg(m: Message) {
  act(() => handleTaskMessage({ conversationId: C, taskId: m.taskId ?? '', message: m }));
}

/** A task_complete call of task t (id names it), and its result with outcome. */
function completion(t: string, id: string, seq: number, outcome: ToolOutcome | '', content = 'Before the task is accepted, Errand checks the result against the plan.') {
  msg(message(`${id}-a`, C, { taskId: t, step: 2, toolCalls: [{ id: `${id}-call`, name: 'task_complete', arguments: '{"summary":"Wrote notes.txt"}' }], seq }));
  msg(message(`${id}-r`, C, { role: 'tool', taskId: t, toolCallId: `${id}-call`, toolName: 'task_complete', content, outcome: outcome || undefined, seq: seq + 1 }));
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.filesChanged).mockImplementation(async (id: string) => ONE(id));
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, []);
});

describe('where a task ends', () => {
  it('the completion card waits for the reflection, and an unmet check shows none', async () => {
    render(<MessageList conversationId={C} />);
    msg(message('u', C, { role: 'user', content: 'Write notes', taskId: 't', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', reflecting: true, stepCount: 2 })));
    completion('t', 'c1', 2, 'checking');
    expect(screen.queryByText('Task complete')).toBeNull();

    // The check found the goal unmet: that attempt is a line, not a card.
    msg(message('c1-r', C, { role: 'tool', taskId: 't', toolCallId: 'c1-call', toolName: 'task_complete', content: 'x', outcome: 'unmet', seq: 3, rev: 2 }));
    expect(screen.getByText('Not complete yet: the check of the result found more to do.')).toBeInTheDocument();
    expect(screen.queryByText('Task complete')).toBeNull();

    // The next attempt is accepted: one card, with its files.
    completion('t', 'c2', 10, '');
    act(() => handleTaskUpdate(task('t', C, { status: 'completed', stepCount: 4, endedAt: '2026-01-01T10:00:12Z' })));
    expect(screen.getAllByText('Task complete')).toHaveLength(1);
    const card = screen.getByText('Task complete').closest('.card-complete') as HTMLElement;
    expect(await within(card).findByRole('button', { name: 'Files changed (1)' })).toBeInTheDocument();
  });

  it('a completion whose check did not answer says so on its card', () => {
    render(<MessageList conversationId={C} />);
    completion('t', 'c1', 2, 'unchecked', 'The check of the result against the plan did not answer, so the result is unchecked.');
    act(() => handleTaskUpdate(task('t', C, { status: 'completed', stepCount: 3, endedAt: '2026-01-01T10:00:12Z' })));
    const card = screen.getByText('Task complete').closest('.card-complete') as HTMLElement;
    expect(card).toHaveTextContent('The check of the result against the plan did not answer');
  });

  it('a stopped task keeps Files changed and Undo at its notice after the next task started', async () => {
    render(<MessageList conversationId={C} />);
    const end = '2026-01-01T10:00:03.120Z';
    msg(message('s', C, { role: 'system', taskId: 't1', content: 'Stopped by user', createdAt: end, seq: 3 }));
    act(() => handleTaskUpdate(task('t1', C, { status: 'cancelled', stepCount: 1, endedAt: end })));
    const region = await screen.findByRole('region', { name: 'Files this task changed' });
    expect(region).toHaveTextContent('The stopped task changed files:');
    expect(within(region).getByRole('button', { name: 'Undo changes' })).toBeInTheDocument();

    msg(message('u2', C, { role: 'user', content: 'Next', taskId: 't2', seq: 4 }));
    act(() => handleTaskUpdate(task('t2', C, { status: 'thinking', stepCount: 1 })));
    expect(screen.getByRole('region', { name: 'Files this task changed' })).toBe(region);
  });

  it('a failed task retried since shows its files only where it ended last', () => {
    render(<MessageList conversationId={C} />);
    msg(message('s', C, { role: 'system', taskId: 't', content: 'The task failed: x', isError: true, createdAt: '2026-01-01T10:00:03Z', seq: 3 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'error', stepCount: 1, endedAt: '2026-01-01T10:00:09Z' })));
    expect(screen.queryByRole('region', { name: 'Files this task changed' })).toBeNull();
  });
});

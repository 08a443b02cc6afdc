import { describe, expect, it } from 'vitest';
import type { Task } from '../api/types';
import { task } from '../test/fixtures';
import { activeTaskOf, applyTask, emptyTasksState } from './tasksReducer';

const withRev = (t: Task, rev: number): Task => ({ ...t, rev }) as Task;

describe('tasks reducer with revisions', () => {
  it('drops an update older than the one it has, even from an event', () => {
    let s = applyTask(emptyTasksState(), withRev(task('t', 'a', { status: 'thinking', stepCount: 1 }), 2));
    s = applyTask(s, withRev(task('t', 'a', { status: 'waiting_user', stepCount: 1, pendingQuestion: '?' }), 4));
    // rev 3 (thinking) overtook by the transport: stale.
    s = applyTask(s, withRev(task('t', 'a', { status: 'thinking', stepCount: 1 }), 3), 'event');
    expect(activeTaskOf(s, 'a')?.status).toBe('waiting_user');
  });

  it('a newer snapshot wins even at the same step, so a reload repairs a stale view', () => {
    let s = applyTask(emptyTasksState(), withRev(task('t', 'a', { status: 'thinking', stepCount: 1 }), 3));
    s = applyTask(s, withRev(task('t', 'a', { status: 'waiting_user', stepCount: 1 }), 4), 'snapshot');
    expect(activeTaskOf(s, 'a')?.status).toBe('waiting_user');
  });

  it('without revisions it behaves as before', () => {
    let s = applyTask(emptyTasksState(), task('t', 'a', { status: 'thinking', stepCount: 1 }), 'event');
    s = applyTask(s, task('t', 'a', { status: 'running', stepCount: 0 }), 'snapshot');
    expect(s.byId.t?.status).toBe('thinking');
  });
});

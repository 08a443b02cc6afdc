import { describe, expect, it } from 'vitest';
import { task } from '../test/fixtures';
import { activeTaskOf, applyTask, emptyTasksState, latestTaskOf } from './tasksReducer';

describe('tasks reducer', () => {
  it('sets the active task while non-terminal and clears it when it ends', () => {
    let s = applyTask(emptyTasksState(), task('t1', 'a', { status: 'running' }));
    expect(activeTaskOf(s, 'a')?.id).toBe('t1');
    s = applyTask(s, task('t1', 'a', { status: 'thinking', stepCount: 1 }));
    expect(activeTaskOf(s, 'a')?.status).toBe('thinking');
    s = applyTask(s, task('t1', 'a', { status: 'waiting_user', stepCount: 2, pendingQuestion: 'Which?' }));
    expect(activeTaskOf(s, 'a')?.pendingQuestion).toBe('Which?');
    s = applyTask(s, task('t1', 'a', { status: 'completed', stepCount: 3 }));
    expect(activeTaskOf(s, 'a')).toBeUndefined();
    expect(latestTaskOf(s, 'a')?.status).toBe('completed');
  });

  it('never brings an ended task back, even from an event', () => {
    let s = applyTask(emptyTasksState(), task('t1', 'a', { status: 'cancelled' }));
    s = applyTask(s, task('t1', 'a', { status: 'thinking' }), 'event');
    expect(s.byId.t1?.status).toBe('cancelled');
    expect(activeTaskOf(s, 'a')).toBeUndefined();
  });

  it('a stale snapshot (e.g. StartTask result) does not undo newer events', () => {
    let s = applyTask(emptyTasksState(), task('t1', 'a', { status: 'thinking', stepCount: 1 }), 'event');
    s = applyTask(s, task('t1', 'a', { status: 'running', stepCount: 0 }), 'snapshot');
    expect(s.byId.t1?.status).toBe('thinking');
    s = applyTask(s, task('t1', 'a', { status: 'completed', stepCount: 1 }), 'snapshot');
    expect(s.byId.t1?.status).toBe('completed');
  });

  it('keeps tasks of different conversations apart', () => {
    let s = applyTask(emptyTasksState(), task('t1', 'a'));
    s = applyTask(s, task('t2', 'b'));
    s = applyTask(s, task('t1', 'a', { status: 'error', errorMessage: 'boom' }));
    expect(activeTaskOf(s, 'a')).toBeUndefined();
    expect(activeTaskOf(s, 'b')?.id).toBe('t2');
  });

  it('latest task follows the newest start time', () => {
    let s = applyTask(emptyTasksState(), task('new', 'a', { startedAt: '2026-01-02T00:00:00Z', status: 'completed' }));
    s = applyTask(s, task('old', 'a', { startedAt: '2026-01-01T00:00:00Z', status: 'completed' }));
    expect(latestTaskOf(s, 'a')?.id).toBe('new');
  });
});

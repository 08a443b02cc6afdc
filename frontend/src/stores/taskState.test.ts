// Reducers and sync for the agent's new task fields and statuses.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '../api/types';
import { conversation, resetStores, summary, task, withoutWorkspace } from '../test/fixtures';

import * as api from '../api';
import { emptyConversationsState, setConversations, upsertConversation } from './conversationsReducer';
import { useConversationsStore } from './conversations';
import { handleTaskUpdate, loadConversation } from './sync';
import { activeTaskOf, allowRevive, applyTask, emptyTasksState, forbidRevive, latestTaskOf } from './tasksReducer';
import { useUsageStore } from './usage';
import { baselineFromView, conversationTotals } from './usageReducer';

const usage = (p: number, c: number, cacheRead = 0, cacheWrite = 0) => ({
  promptTokens: p,
  completionTokens: c,
  totalTokens: p + c,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: cacheWrite,
});

describe('tasks reducer: approvals, pauses, interruptions', () => {
  it('keeps the new fields and treats waiting_approval, paused and interrupted as active', () => {
    const approval = { callId: 'c1', tool: 'write_file', risk: 'writes', arguments: '{}', preview: '+x' };
    let s = applyTask(emptyTasksState(), task('t', 'a', { status: 'waiting_approval', pendingApproval: approval, currentCallId: 'c1' }));
    expect(activeTaskOf(s, 'a')?.pendingApproval).toEqual(approval);
    s = applyTask(
      s,
      task('t', 'a', {
        status: 'paused',
        pauseReason: 'steps',
        pendingQuestion: 'Limit reached: 2 steps. Continue for 25 more steps, or stop?',
        limits: { maxSteps: 2, maxMinutes: 30, maxCostUsd: 1 },
        costUsd: 0.0123,
        activeMs: 4200,
        usage: usage(10, 5),
      }),
    );
    const t = activeTaskOf(s, 'a');
    expect(t).toMatchObject({ status: 'paused', pauseReason: 'steps', costUsd: 0.0123, activeMs: 4200 });
    expect(t?.limits?.maxSteps).toBe(2);
    s = applyTask(s, task('t', 'a', { status: 'interrupted' }));
    expect(activeTaskOf(s, 'a')?.status).toBe('interrupted');
    s = applyTask(s, task('t', 'a', { status: 'cancelled' }));
    expect(activeTaskOf(s, 'a')).toBeUndefined();
  });

  it('an ended task comes back only once, and only when the person asked (Retry)', () => {
    let s = applyTask(emptyTasksState(), task('t', 'a', { status: 'error', stepCount: 3, errorMessage: 'x' }));
    // A late update: ignored.
    s = applyTask(s, task('t', 'a', { status: 'running', stepCount: 3 }));
    expect(s.byId.t?.status).toBe('error');
    s = allowRevive(s, 't');
    s = applyTask(s, task('t', 'a', { status: 'running', stepCount: 3 }), 'snapshot');
    expect(activeTaskOf(s, 'a')?.status).toBe('running');
    expect(s.revivable.t).toBeUndefined();
    s = applyTask(s, task('t', 'a', { status: 'error', stepCount: 4, errorMessage: 'y' }));
    s = applyTask(s, task('t', 'a', { status: 'thinking', stepCount: 4 }));
    expect(s.byId.t?.status).toBe('error');
    expect(latestTaskOf(s, 'a')?.errorMessage).toBe('y');
    expect(forbidRevive(allowRevive(s, 't'), 't').revivable).toEqual({});
  });
});

describe('usage totals', () => {
  it('baseline from LoadConversation, plus what tasks used since', () => {
    const base = baselineFromView({
      tasks: [task('a', 'c', { usage: usage(100, 10), costUsd: 0.5 })],
      activeTask: task('b', 'c', { usage: usage(10, 0), costUsd: 0.1 }),
      usage: usage(110, 10),
      costUsd: 0.6,
    });
    const now = (over: Partial<Task>[]) =>
      conversationTotals(
        base,
        over.map((o, i) => task(o.id ?? `x${i}`, 'c', o)),
      );
    expect(now([])).toEqual({ usage: usage(110, 10), costUsd: 0.6 });
    const t = now([
      { id: 'a', usage: usage(100, 10), costUsd: 0.5 },
      { id: 'b', usage: usage(30, 5), costUsd: 0.3 },
      { id: 'new', usage: usage(1, 1), costUsd: 0.01 },
    ]);
    expect(t?.usage).toEqual(usage(131, 16));
    expect(t?.costUsd).toBeCloseTo(0.81);
    // An older snapshot of a task never takes anything away.
    expect(now([{ id: 'b', usage: usage(0, 0), costUsd: 0 }])).toEqual({ usage: usage(110, 10), costUsd: 0.6 });
    expect(conversationTotals(undefined, [])).toBeUndefined();
  });

  it('adds up the cached tokens too', () => {
    const base = baselineFromView({
      tasks: [task('a', 'c', { usage: usage(100, 4, 80, 10) }), task('b', 'c', { usage: usage(50, 2, 40, 0) })],
      activeTask: undefined,
    });
    expect(base.total.usage).toEqual(usage(150, 6, 120, 10));
  });

  it('adds the tasks up when an older backend sends no totals', () => {
    const base = baselineFromView({ tasks: [task('a', 'c', { usage: usage(3, 4), costUsd: 0.25 })] });
    expect(base.total).toEqual({ usage: usage(3, 4), costUsd: 0.25 });
  });
});

describe('conversations: workspace', () => {
  it('keeps the workspace; an event without it keeps the known one', () => {
    let s = setConversations(emptyConversationsState(), [summary('a', { workspace: '/srv/site' })]);
    expect(s.byId.a?.workspace).toBe('/srv/site');
    s = upsertConversation(s, withoutWorkspace(conversation('a', { title: 'Renamed' })));
    expect(s.byId.a?.workspace).toBe('/srv/site');
    s = upsertConversation(s, conversation('a', { workspace: '' }));
    expect(s.byId.a?.workspace).toBe('');
  });
});

describe('sync', () => {
  beforeEach(() => {
    resetStores();
    vi.clearAllMocks();
  });

  it('an approval, a pause or an interruption marks the conversation as needing the person', () => {
    for (const status of ['waiting_approval', 'paused', 'interrupted', 'waiting_user'] as const) {
      handleTaskUpdate(task('t', 'a', { status, stepCount: 1 }));
      expect(useConversationsStore.getState().needsInput.a).toBe(true);
      handleTaskUpdate(task('t', 'a', { status: 'running', stepCount: 1 }));
      expect(useConversationsStore.getState().needsInput.a).toBeFalsy();
    }
  });

  it("a load records the conversation's totals", async () => {
    vi.mocked(api.loadConversation).mockResolvedValue({
      conversation: conversation('a'),
      messages: [],
      tasks: [task('t', 'a', { status: 'completed', usage: usage(5, 5), costUsd: 0.002 })],
      usage: usage(5, 5),
      costUsd: 0.002,
    });
    await loadConversation('a');
    expect(useUsageStore.getState().baselines.a?.total).toEqual({ usage: usage(5, 5), costUsd: 0.002 });
  });
});

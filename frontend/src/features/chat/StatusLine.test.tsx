import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Plan, Task } from '../../api/types';
import { deliverDelta, message, resetStores, task } from '../../test/fixtures';

import { useMessagesStore } from '../../stores/messages';
import { handleTaskUpdate } from '../../stores/sync';
import { describeTask, StatusLine } from './StatusLine';

const C = 'c1';
const START = Date.parse('2026-01-01T10:00:00Z');

beforeEach(() => {
  resetStores();
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(START + 5_000);
});

afterEach(() => {
  vi.useRealTimers();
});

function status() {
  return screen.getByRole('status');
}

function text() {
  return status().querySelector('.status-text')?.textContent;
}

describe('StatusLine', () => {
  it('idle: says Ready, to screen readers only', () => {
    render(<StatusLine conversationId={C} />);
    expect(status()).toHaveTextContent('Ready');
    expect(status()).toHaveClass('status-idle');
    expect(status().querySelector('.status-spinner')).toBeNull();
  });

  it('thinking, tool, waiting: text, step, elapsed time and a spinner while working', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2 })));
    expect(text()).toBe('Thinking…');
    expect(status()).toHaveTextContent('Step 2');
    expect(status()).toHaveTextContent('0:05');
    expect(status()).toHaveClass('status-live');
    expect(status().querySelector('.status-spinner')).not.toBeNull();

    act(() => handleTaskUpdate(task('t', C, { status: 'tool_executing', stepCount: 3, currentTool: 'web_search' })));
    expect(text()).toBe('Running web_search…');
    expect(status()).toHaveTextContent('Step 3');

    act(() => handleTaskUpdate(task('t', C, { status: 'waiting_user', stepCount: 3, pendingQuestion: '?' })));
    expect(text()).toBe('Waiting for your answer');
    expect(status()).toHaveClass('status-waiting');
    expect(status().querySelector('.status-spinner')).toBeNull();
  });

  it('completed: how long it took and the tokens it used', () => {
    render(<StatusLine conversationId={C} />);
    act(() =>
      handleTaskUpdate(
        task('t', C, {
          status: 'completed',
          stepCount: 4,
          endedAt: '2026-01-01T10:01:05Z',
          usage: { promptTokens: 1000, completionTokens: 234, totalTokens: 1234, cacheReadTokens: 0, cacheWriteTokens: 0 },
        }),
      ),
    );
    expect(text()).toBe('Completed');
    expect(status()).toHaveTextContent('1:05');
    expect(status()).toHaveTextContent('1,234 tokens');
    expect(status()).toHaveClass('status-done');
    expect(status()).not.toHaveTextContent('cached');
  });

  it('a Claude task: how much of its prompt came from the cache', () => {
    render(<StatusLine conversationId={C} />);
    act(() =>
      handleTaskUpdate(
        task('t', C, {
          status: 'completed',
          stepCount: 3,
          endedAt: '2026-01-01T10:01:05Z',
          usage: { promptTokens: 30000, completionTokens: 600, totalTokens: 30600, cacheReadTokens: 24000, cacheWriteTokens: 5000 },
        }),
      ),
    );
    expect(status()).toHaveTextContent('30.6k tokens (24.0k cached)');
    expect(screen.getByTitle('Prompt 30,000 (24,000 cached, 5,000 written to the cache) · completion 600 tokens')).toBeInTheDocument();
  });

  it('cancelled and error', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'cancelled' })));
    expect(text()).toBe('Stopped');
    expect(status()).toHaveClass('status-stopped');
    act(() =>
      handleTaskUpdate(
        task('t2', C, { status: 'error', errorMessage: 'model unreachable', startedAt: '2026-01-01T10:00:01Z' }),
      ),
    );
    expect(text()).toBe('Failed');
    expect(status()).toHaveClass('status-error');
  });

  it('a chat reply shows no agent chrome; times say what they are; streaming text is Writing…', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { mode: 'chat', status: 'thinking', stepCount: 1 })));
    expect(text()).toBe('Thinking…');
    expect(status()).not.toHaveTextContent('Step');
    expect(status()).toHaveTextContent('0:05 so far');
    act(() => {
      useMessagesStore.getState().beginLoad(C);
      useMessagesStore.getState().finishLoad(C, [message('m', C, { content: '', streaming: true, taskId: 't' })]);
    });
    act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 0, text: 'Hello', rev: 2 }));
    expect(text()).toBe('Writing…');
    act(() =>
      handleTaskUpdate(
        task('t', C, {
          mode: 'chat',
          status: 'completed',
          stepCount: 1,
          endedAt: '2026-01-01T10:00:03Z',
          activeMs: 3000,
          usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120, cacheReadTokens: 0, cacheWriteTokens: 0 },
        }),
      ),
    );
    expect(text()).toBe('Replied');
    expect(status()).toHaveTextContent('took 0:03');
    expect(status()).not.toHaveTextContent(/Step|working time|worked/);
  });

  it('elapsed time updates live, and the ticking clock is not announced', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    expect(status()).toHaveTextContent('0:05');
    act(() => vi.advanceTimersByTime(3_000));
    expect(status()).toHaveTextContent('0:08');
    expect(status().querySelector('.status-clock')).toHaveAttribute('aria-hidden', 'true');
  });

  it('only shows the task of its own conversation', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('other', 'c2', { status: 'thinking', stepCount: 1 })));
    expect(status()).toHaveTextContent('Ready');
  });

  it('describes the statuses that wait for the person', () => {
    const t = (over: Record<string, unknown>) => ({ ...task('t', C), ...over }) as Task;
    expect(describeTask(t({ status: 'waiting_approval' }))).toMatch(/^Waiting for your approval/);
    expect(describeTask(t({ status: 'paused', pauseReason: 'steps' }))).toBe('Paused: step limit reached');
    expect(describeTask(t({ status: 'paused' }))).toBe('Paused');
    expect(describeTask(t({ status: 'interrupted' }))).toBe('Interrupted');
    expect(describeTask(undefined)).toBe('Ready');
  });
});

describe('StatusLine phases', () => {
  beforeEach(() => resetStores());
  const plan = (steps: Plan['steps']): Plan => ({ taskId: 't', conversationId: C, revision: 1, steps, updatedAt: '2026-01-01T10:00:00Z' });

  it('names the phase: Planning…, the current plan step, Checking the result…', () => {
    render(<StatusLine conversationId={C} />);
    const text = () => screen.getByRole('status').querySelector('.status-text')?.textContent;
    act(() => handleTaskUpdate(task('t', C, { status: 'running', stepCount: 0, rev: 1 })));
    expect(text()).toBe('Planning…');
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1, rev: 2 })));
    expect(text()).toBe('Planning…');
    // The first step's answer has come (its tools run, or it completes): working, not planning.
    act(() => handleTaskUpdate(task('t', C, { status: 'running', stepCount: 1, rev: 3 })));
    expect(text()).toBe('Working…');
    const p = plan([
      { title: 'Read the notes', status: 'done' },
      { title: 'Write the summary', status: 'in_progress' },
    ]);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 3, plan: p, rev: 4 })));
    expect(text()).toBe('Write the summary…');
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 4, plan: p, reflecting: true, rev: 5 })));
    expect(text()).toBe('Checking the result…');
    act(() => handleTaskUpdate(task('t', C, { status: 'tool_executing', currentTool: 'write_file', stepCount: 5, plan: p, rev: 6 })));
    expect(text()).toBe('Running write_file…');
  });
});

describe('Waiting for the model', () => {
  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it('counts the seconds the model has been silent in a step, from its start or its last delta', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2 })));
    advance(4_000);
    expect(text()).toBe('Thinking…');
    advance(1_000);
    expect(text()).toBe('Waiting for the model · 5 s');
    advance(40_000);
    expect(text()).toBe('Waiting for the model · 45 s');
    // The count itself is not announced every second.
    expect(status().querySelector('.status-text [aria-hidden="true"]')).toHaveTextContent('· 45 s');

    // A delta of the reply: the model speaks again.
    act(() => {
      useMessagesStore.getState().beginLoad(C);
      useMessagesStore.getState().finishLoad(C, [message('m', C, { content: '', streaming: true, taskId: 't' })]);
    });
    act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 0, text: 'Hello', rev: 2 }));
    expect(text()).toBe('Writing…');
    advance(3_000);
    expect(text()).toBe('Writing…');
    advance(3_000);
    expect(text()).toBe('Waiting for the model · 6 s');

    // The next step counts from its own start.
    act(() => handleTaskUpdate(task('t', C, { status: 'tool_executing', currentTool: 'read_file', stepCount: 2, rev: 3 })));
    expect(text()).toBe('Running read_file…');
    advance(10_000);
    expect(text()).toBe('Running read_file…');
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 3, rev: 4 })));
    expect(text()).not.toMatch(/Waiting for the model/);
    advance(7_000);
    expect(text()).toBe('Waiting for the model · 7 s');
  });

  it('is gone once the task ends', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    advance(20_000);
    expect(text()).toBe('Waiting for the model · 20 s');
    act(() => handleTaskUpdate(task('t', C, { status: 'error', stepCount: 1, endedAt: '2026-01-01T10:00:25Z', rev: 3 })));
    expect(text()).toBe('Failed');
  });
});

import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStores, task } from '../../test/fixtures';

vi.mock('../../api', () => ({ loadConversation: vi.fn() }));
vi.mock('../../events', () => ({ subscribeAll: vi.fn(() => () => {}) }));

import { handleTaskUpdate } from '../../stores/sync';
import { StatusLine } from './StatusLine';

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

describe('StatusLine', () => {
  it('says Ready when there is no task', () => {
    render(<StatusLine conversationId={C} />);
    expect(status()).toHaveTextContent('Ready');
  });

  it('shows each state of a task', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2 })));
    expect(status()).toHaveTextContent('Thinking… (step 2)');

    act(() => handleTaskUpdate(task('t', C, { status: 'tool_executing', stepCount: 3, currentTool: 'web_search' })));
    expect(status()).toHaveTextContent('Running web_search… (step 3)');

    act(() => handleTaskUpdate(task('t', C, { status: 'waiting_user', stepCount: 3, pendingQuestion: '?' })));
    expect(status()).toHaveTextContent('Waiting for your answer');

    act(() => handleTaskUpdate(task('t', C, { status: 'completed', stepCount: 4, endedAt: '2026-01-01T10:01:05Z' })));
    expect(status()).toHaveTextContent('Completed');
    expect(status()).toHaveTextContent('1:05');
  });

  it('Stopped and Error', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'cancelled' })));
    expect(status()).toHaveTextContent('Stopped');
    act(() => handleTaskUpdate(task('t2', C, { status: 'error', errorMessage: 'model unreachable', startedAt: '2026-01-01T10:00:01Z' })));
    expect(status()).toHaveTextContent('Error: model unreachable');
  });

  it('elapsed time updates live while the task is active', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    expect(status()).toHaveTextContent('0:05');
    act(() => vi.advanceTimersByTime(3_000));
    expect(status()).toHaveTextContent('0:08');
  });

  it('only shows the task of its own conversation', () => {
    render(<StatusLine conversationId={C} />);
    act(() => handleTaskUpdate(task('other', 'c2', { status: 'thinking', stepCount: 1 })));
    expect(status()).toHaveTextContent('Ready');
  });
});

import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetStores, task } from '../../test/fixtures';

import { handleTaskUpdate } from '../../stores/sync';
import { describeTask, StatusLine } from '../chat/StatusLine';

beforeEach(() => resetStores());

describe('status text for the agent states', () => {
  it('reads every new status', () => {
    expect(
      describeTask(
        task('t', 'c', {
          status: 'waiting_approval',
          currentTool: 'write_file',
          pendingApproval: { callId: 'x', tool: 'write_file', risk: 'writes', arguments: '{}' },
        }),
      ),
    ).toBe('Waiting for your approval: write_file');
    expect(describeTask(task('t', 'c', { status: 'paused', pauseReason: 'steps' }))).toMatch(/^Paused: step limit reached$/);
    expect(describeTask(task('t', 'c', { status: 'paused', pauseReason: 'time' }))).toMatch(/^Paused: time limit reached$/);
    expect(describeTask(task('t', 'c', { status: 'paused', pauseReason: 'cost' }))).toMatch(/^Paused: \w+ limit reached$/);
    expect(describeTask(task('t', 'c', { status: 'interrupted' }))).toBe('Interrupted');
  });

  it("the status line shows the task's spend and working time", () => {
    render(<StatusLine conversationId="c" />);
    act(() =>
      handleTaskUpdate(
        task('t', 'c', {
          status: 'completed',
          stepCount: 3,
          endedAt: '2026-01-01T10:01:00Z',
          usage: { promptTokens: 1200, completionTokens: 34, totalTokens: 1234, cacheReadTokens: 0, cacheWriteTokens: 0 },
          costUsd: 0.00042,
          activeMs: 12_000,
        }),
      ),
    );
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('1,234 tokens');
    expect(status).toHaveTextContent('$0.0004');
    expect(status).toHaveTextContent('working time 0:12');
  });
});

// A first screen whose conversation waits on the person (or whose task ended
// short) shows a card: its code comes before the first render.
import { describe, expect, it } from 'vitest';
import type { FirstScreen } from '../api/types';
import { cardOnFirstScreen } from './actions';

const ENDED = ['completed', 'cancelled', 'error'];

/** A first screen whose conversation's tasks have these statuses, oldest first (the last unfinished one active). */
function screen(...statuses: string[]): FirstScreen {
  const tasks = statuses.map((status, i) => ({ id: `t${i}`, status, pendingApproval: status === 'waiting_approval' ? { callId: 'call_1' } : undefined }));
  const last = tasks.at(-1);
  const activeTask = last && !ENDED.includes(last.status) ? last : undefined;
  return { status: { ready: true }, open: { conversation: { id: 'c' }, messages: [], tasks, activeTask } } as unknown as FirstScreen;
}

describe('cardOnFirstScreen', () => {
  it('is true when the latest task waits on the person, is paused, was interrupted or failed', () => {
    for (const s of ['waiting_user', 'waiting_approval', 'paused', 'interrupted', 'error']) {
      expect(cardOnFirstScreen(screen('completed', s)), s).toBe(true);
    }
  });

  it('is false for a finished or working task, no task, or no first screen', () => {
    for (const s of ['completed', 'cancelled', 'running', 'thinking']) expect(cardOnFirstScreen(screen('error', s)), s).toBe(false);
    expect(cardOnFirstScreen(screen())).toBe(false);
    expect(cardOnFirstScreen(null)).toBe(false);
  });
});

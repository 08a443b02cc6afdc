import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../api';
import type { Plan, PlanStep } from '../../api/types';
import { handleTaskUpdate } from '../../stores/sync';
import { resetStores, task } from '../../test/fixtures';
import { ConversationPlan } from './ConversationPlan';
import { PlanChecklist } from './PlanChecklist';
import { planChanges } from './plan';

function plan(revision: number, steps: PlanStep[], note = 'Done when it builds.'): Plan {
  return { taskId: 't1', conversationId: 'c1', revision, steps, note, updatedAt: '2026-11-24T10:00:00Z' };
}

const FIRST = plan(1, [
  { title: 'Read the brief', status: 'in_progress' },
  { title: 'Draft the page', status: 'pending' },
]);
const SECOND = plan(2, [
  { title: 'Read the brief', status: 'done' },
  { title: 'Check the links', status: 'pending' },
]);

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

describe('Plan history', () => {
  it('opens every revision, newest first, each with what changed', async () => {
    vi.mocked(api.planHistory).mockResolvedValue([FIRST, SECOND]);
    const user = userEvent.setup();
    render(<PlanChecklist plan={SECOND} />);
    await user.click(screen.getByRole('button', { name: 'Plan history' }));
    const dialog = await screen.findByRole('dialog', { name: 'Plan history' });
    expect(api.planHistory).toHaveBeenCalledWith('t1');
    const second = await within(dialog).findByRole('list', { name: 'What changed in revision 2' });
    expect(within(second).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '“Read the brief”: in progress → done',
      'Added “Check the links”',
      'Removed “Draft the page”',
    ]);
    const first = within(dialog).getByRole('list', { name: 'What changed in revision 1' });
    expect(first).toHaveTextContent('The first plan.');
    const heads = within(dialog).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(heads[0]).toMatch(/^Revision 2/);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is not offered before the plan was revised', () => {
    render(<PlanChecklist plan={FIRST} />);
    expect(screen.queryByRole('button', { name: 'Plan history' })).not.toBeInTheDocument();
  });

  it('names a changed note and an unchanged revision', () => {
    expect(planChanges(FIRST, { ...FIRST, revision: 2, note: 'Other' })).toEqual(['Changed the success criteria']);
    expect(planChanges(FIRST, { ...FIRST, revision: 2 })).toEqual(['No change.']);
  });
});

describe('the pinned plan', () => {
  it('folds to one line once its task has ended, and still unfolds', async () => {
    handleTaskUpdate(task('t1', 'c1', { status: 'running', plan: SECOND }));
    render(<ConversationPlan conversationId="c1" />);
    const head = () => screen.getByRole('button', { name: /Plan · 1 of 2/ });
    expect(head()).toHaveAttribute('aria-expanded', 'true');
    act(() => handleTaskUpdate(task('t1', 'c1', { status: 'completed', plan: SECOND, rev: 2, endedAt: '2026-11-24T10:05:00Z' })));
    expect(head()).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listitem')).toBeNull();
    await userEvent.setup().click(head());
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });
});

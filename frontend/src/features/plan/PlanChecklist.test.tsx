import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Plan, PlanStep } from '../../api/types';
import { PlanBadge, PlanChecklist } from './PlanChecklist';

function plan(steps: PlanStep[], note?: string): Plan {
  return { taskId: 't1', conversationId: 'c1', revision: 1, steps, note, updatedAt: '2026-11-24T10:00:00Z' };
}

const STEPS: PlanStep[] = [
  { title: 'Read the brief', status: 'done' },
  { title: 'Draft the page', status: 'done' },
  { title: 'Check the links', status: 'in_progress' },
  { title: 'Add a contact form', status: 'skipped' },
  { title: 'Write the summary', status: 'pending' },
];

describe('PlanChecklist', () => {
  it('is a region named Plan with its progress and every step with its status', () => {
    render(<PlanChecklist plan={plan(STEPS, 'Done when every link answers.')} />);
    const region = screen.getByRole('region', { name: 'Plan' });
    expect(within(region).getByRole('button', { name: /Plan · 2 of 5/ })).toHaveAttribute('aria-expanded', 'true');
    const items = within(region).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      '✓Read the brief, done',
      '✓Draft the page, done',
      '◐Check the links, in progress',
      '–Add a contact form, skipped',
      '○Write the summary, to do',
    ]);
    expect(items[2]).toHaveAttribute('aria-current', 'step');
    expect(within(region).getByText('Done when every link answers.')).toBeInTheDocument();
  });

  it('folds to its header with the current step, and unfolds again', async () => {
    const user = userEvent.setup();
    render(<PlanChecklist plan={plan(STEPS)} />);
    const head = screen.getByRole('button', { name: /Plan · 2 of 5/ });
    await user.click(head);
    expect(head).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('listitem')).toBeNull();
    expect(head).toHaveTextContent('Check the links');
    await user.click(head);
    expect(screen.getAllByRole('listitem')).toHaveLength(5);
  });

  it('follows a revised plan', () => {
    const { rerender } = render(<PlanChecklist plan={plan(STEPS.slice(0, 2).map((s) => ({ ...s, status: 'pending' })))} />);
    expect(screen.getByRole('button', { name: /Plan · 0 of 2/ })).toBeInTheDocument();
    rerender(<PlanChecklist plan={plan(STEPS)} />);
    expect(screen.getByRole('button', { name: /Plan · 2 of 5/ })).toBeInTheDocument();
  });
});

describe('PlanBadge', () => {
  it('shows the progress and the step being worked on', () => {
    render(<PlanBadge plan={plan(STEPS)} />);
    expect(screen.getByText(/Plan · 2 of 5/)).toHaveTextContent('Plan · 2 of 5 · Check the links');
  });

  it('names no step when every step is settled', () => {
    render(<PlanBadge plan={plan([{ title: 'Only', status: 'done' }])} />);
    expect(screen.getByText('Plan · 1 of 1')).toBeInTheDocument();
  });
});

import type { Plan, PlanStep, StepStatus } from '../../api/types';

/** How far a plan has come: steps done of all steps (skipped ones still count as steps). */
export function planProgress(plan: Plan): { done: number; total: number } {
  return { done: plan.steps.filter((s) => s.status === 'done').length, total: plan.steps.length };
}

/** The step being worked on: the first in progress, else the first pending one. */
export function currentStep(plan: Plan): PlanStep | null {
  return plan.steps.find((s) => s.status === 'in_progress') ?? plan.steps.find((s) => s.status === 'pending') ?? null;
}

/** "Plan · 2 of 5" */
export function planLabel(plan: Plan): string {
  const { done, total } = planProgress(plan);
  return `Plan · ${done} of ${total}`;
}

export const STATUS_LABEL: Record<StepStatus, string> = {
  pending: 'to do',
  in_progress: 'in progress',
  done: 'done',
  skipped: 'skipped',
};

/**
 * What changed from one plan revision to the next, one line each: steps
 * added and removed (by title), status changes, and a changed note.
 */
export function planChanges(prev: Plan | null, next: Plan): string[] {
  if (!prev) return ['The first plan.'];
  const before = new Map(prev.steps.map((s) => [s.title, s.status]));
  const after = new Set(next.steps.map((s) => s.title));
  const out: string[] = [];
  for (const s of next.steps) {
    const was = before.get(s.title);
    if (was === undefined) out.push(`Added “${s.title}”`);
    else if (was !== s.status) out.push(`“${s.title}”: ${STATUS_LABEL[was]} → ${STATUS_LABEL[s.status]}`);
  }
  for (const s of prev.steps) if (!after.has(s.title)) out.push(`Removed “${s.title}”`);
  if ((prev.note ?? '') !== (next.note ?? '')) out.push('Changed the success criteria');
  return out.length ? out : ['No change.'];
}

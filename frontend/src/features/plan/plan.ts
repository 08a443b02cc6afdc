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

// Pure functions for a conversation's total usage and spend: the totals
// LoadConversation reported, plus what its tasks have used since (from
// task updates), so the header stays live without reloading.
import type { ConversationView, Task, Usage } from '../api/types';

export interface UsageTotals {
  usage: Usage;
  costUsd: number;
}

/** What LoadConversation said: the total and each task's share of it. */
export interface UsageBaseline {
  total: UsageTotals;
  tasks: Record<string, UsageTotals>;
}

export const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function usageOf(u: Partial<Usage> | null | undefined): Usage {
  return {
    promptTokens: num(u?.promptTokens),
    completionTokens: num(u?.completionTokens),
    totalTokens: num(u?.totalTokens),
    cacheReadTokens: num(u?.cacheReadTokens),
    cacheWriteTokens: num(u?.cacheWriteTokens),
  };
}

export function taskTotals(t: Pick<Task, 'usage' | 'costUsd'>): UsageTotals {
  return { usage: usageOf(t.usage), costUsd: num(t.costUsd) };
}

function add(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    usage: {
      promptTokens: a.usage.promptTokens + b.usage.promptTokens,
      completionTokens: a.usage.completionTokens + b.usage.completionTokens,
      totalTokens: a.usage.totalTokens + b.usage.totalTokens,
      cacheReadTokens: num(a.usage.cacheReadTokens) + num(b.usage.cacheReadTokens),
      cacheWriteTokens: num(a.usage.cacheWriteTokens) + num(b.usage.cacheWriteTokens),
    },
    costUsd: a.costUsd + b.costUsd,
  };
}

/** What a task used beyond its baseline; usage only grows, so never negative. */
function growth(now: UsageTotals, base: UsageTotals): UsageTotals {
  return {
    usage: {
      promptTokens: Math.max(0, now.usage.promptTokens - base.usage.promptTokens),
      completionTokens: Math.max(0, now.usage.completionTokens - base.usage.completionTokens),
      totalTokens: Math.max(0, now.usage.totalTokens - base.usage.totalTokens),
      cacheReadTokens: Math.max(0, num(now.usage.cacheReadTokens) - num(base.usage.cacheReadTokens)),
      cacheWriteTokens: Math.max(0, num(now.usage.cacheWriteTokens) - num(base.usage.cacheWriteTokens)),
    },
    costUsd: Math.max(0, now.costUsd - base.costUsd),
  };
}

/** An older backend sent no usage and cost with the view: the tasks are added up instead. */
type ViewTotals = Pick<ConversationView, 'tasks' | 'activeTask'> & Partial<Pick<ConversationView, 'usage' | 'costUsd'>>;

export function baselineFromView(view: ViewTotals): UsageBaseline {
  const tasks: Record<string, UsageTotals> = {};
  for (const t of [...(view.tasks ?? []), ...(view.activeTask ? [view.activeTask] : [])]) {
    tasks[t.id] = taskTotals(t);
  }
  let total: UsageTotals;
  if (view.usage) {
    total = { usage: usageOf(view.usage), costUsd: num(view.costUsd) };
  } else {
    // An older backend: add the tasks up ourselves.
    total = Object.values(tasks).reduce(add, { usage: ZERO_USAGE, costUsd: 0 });
  }
  return { total, tasks };
}

/** The conversation's totals now: the baseline plus what its tasks used since. */
export function conversationTotals(base: UsageBaseline | undefined, tasks: readonly Task[]): UsageTotals | undefined {
  if (!base) return undefined;
  let total = base.total;
  for (const t of tasks) {
    total = add(total, growth(taskTotals(t), base.tasks[t.id] ?? { usage: ZERO_USAGE, costUsd: 0 }));
  }
  return total;
}

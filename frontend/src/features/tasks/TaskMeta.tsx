import type { Task } from '../../api/types';
import { isBusy } from '../../api/types';
import { formatDuration } from '../../lib/time';
import { formatCost, formatTokens, usageBreakdown } from './format';

export type TaskMetaPart = 'steps' | 'tokens' | 'cost' | 'active';

/** A task's steps, tokens, spend and working time (or some of them), as status-line items. */
export function TaskMeta({
  task,
  parts = ['steps', 'tokens', 'cost', 'active'],
}: {
  task: Task;
  parts?: readonly TaskMetaPart[];
}) {
  const items: { key: string; text: string; title?: string }[] = [];
  const steps = task.stepCount ?? 0;
  const want = (p: TaskMetaPart) => parts.includes(p);
  // While it works the status text already says "(step N)".
  if (want('steps') && steps > 0 && !isBusy(task.status)) {
    const limit = task.limits?.maxSteps;
    items.push({
      key: 'steps',
      text: `${steps} ${steps === 1 ? 'step' : 'steps'}`,
      title: limit ? `Step limit for this task: ${limit}` : undefined,
    });
  }
  const tokens = task.usage?.totalTokens ?? 0;
  if (want('tokens') && tokens > 0) items.push({ key: 'tokens', text: formatTokens(tokens), title: usageBreakdown(task.usage) });
  const cost = task.costUsd ?? 0;
  if (want('cost') && cost > 0) {
    const limit = task.limits?.maxCostUsd;
    items.push({
      key: 'cost',
      text: formatCost(cost),
      title: limit ? `Spent by this task; its spend limit is ${formatCost(limit)}` : 'Spent by this task',
    });
  }
  const active = task.activeMs ?? 0;
  if (want('active') && active >= 1000) {
    items.push({
      key: 'active',
      text: `working time ${formatDuration(active)}`,
      title: 'Time spent working, not waiting for you (the time limit counts this)',
    });
  }
  return (
    <>
      {items.map((i) => (
        <span key={i.key} className="status-meta" title={i.title}>
          {i.text}
        </span>
      ))}
    </>
  );
}

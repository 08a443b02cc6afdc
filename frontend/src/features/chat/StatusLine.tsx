import type { Task } from '../../api/types';
import { isTerminal } from '../../api/types';
import { formatDuration, timeValue } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { useActiveTask, useLatestTask } from '../../stores/tasks';

/** What the agent is doing, in words. */
export function describeTask(task: Task | undefined): string {
  if (!task) return 'Ready';
  const step = task.stepCount > 0 ? ` (step ${task.stepCount})` : '';
  switch (task.status) {
    case 'running':
      return `Working…${step}`;
    case 'thinking':
      return `Thinking…${step}`;
    case 'tool_executing':
      return `Running ${task.currentTool || 'a tool'}…${step}`;
    case 'waiting_user':
      return 'Waiting for your answer';
    case 'completed':
      return 'Completed';
    case 'cancelled':
      return 'Stopped';
    case 'error':
      return `Error: ${task.errorMessage || 'the task failed'}`;
    default:
      return 'Ready';
  }
}

export function StatusLine({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  const task = active ?? latest;
  const live = !!task && !isTerminal(task.status);
  const now = useNow(live);

  let elapsed = '';
  if (task) {
    const start = timeValue(task.startedAt);
    const end = live ? now : timeValue(task.endedAt);
    if (start > 0 && end >= start) elapsed = formatDuration(end - start);
  }
  const tokens = task && !live && task.usage?.totalTokens ? `${task.usage.totalTokens.toLocaleString()} tokens` : '';
  const tone = !task ? 'idle' : task.status === 'error' ? 'error' : live ? (task.status === 'waiting_user' ? 'waiting' : 'live') : 'done';

  return (
    <div className={`status-line status-${tone}`} role="status" aria-live="polite">
      {live && tone === 'live' && <span className="status-spinner" aria-hidden="true" />}
      <span className="status-text">{describeTask(task)}</span>
      {elapsed && (
        <span className="status-meta">
          {elapsed}
        </span>
      )}
      {tokens && <span className="status-meta">{tokens}</span>}
    </div>
  );
}

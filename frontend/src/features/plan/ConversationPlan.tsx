import { useActiveTask, useLatestTask } from '../../stores/tasks';
import { PlanChecklist } from './PlanChecklist';

/**
 * The plan pinned above the transcript: the running task's, else the
 * latest task's (it stays after the task ends, and after a reload, folded
 * to one line: its key changes when the task ends, so it folds then too).
 */
export function ConversationPlan({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  const task = active ?? latest;
  if (!task?.plan) return null;
  const ended = !active;
  return <PlanChecklist key={`${task.id}:${ended}`} plan={task.plan} ended={ended} />;
}

import { useActiveTask, useLatestTask } from '../../stores/tasks';
import { PlanChecklist } from './PlanChecklist';

/**
 * The plan pinned above the transcript: the running task's, else the
 * latest task's (it stays after the task ends, and after a reload).
 */
export function ConversationPlan({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  const task = active ?? latest;
  if (!task?.plan) return null;
  return <PlanChecklist key={task.id} plan={task.plan} />;
}

import { useTasksStore } from '../../stores/tasks';
import { FilesChanged } from './FilesChanged';

const LEADS: Partial<Record<string, string>> = {
  cancelled: 'The stopped task changed files:',
  error: 'The failed task changed files:',
};

/**
 * The files a stopped or failed task changed, with Undo, at the notice
 * that ended it: Go dates that notice at the task's end, so a task retried
 * after failing shows them only where it ended last.
 */
export function TaskEndFiles({ taskId, at }: { taskId: string; at: string }) {
  const lead = useTasksStore((s) => {
    const t = s.byId[taskId];
    if (!t?.endedAt || Date.parse(t.endedAt) !== Date.parse(at)) return undefined;
    return LEADS[t.status];
  });
  if (!lead) return null;
  return <FilesChanged taskId={taskId} className="agent-card" lead={lead} />;
}

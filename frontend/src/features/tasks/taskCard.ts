import type { Task } from '../../api/types';

/** Which card a conversation's tasks show above the composer (AgentPanel), if any. */
export type TaskCard = 'approval' | 'question' | 'pause' | 'interrupted' | 'failed';

/** The card for the unfinished task (active) or, with none, the latest one. */
export function taskCard(active: Task | undefined, latest: Task | undefined): TaskCard | null {
  if (active?.status === 'waiting_approval' && active.pendingApproval) return 'approval';
  if (active?.status === 'waiting_user' && active.currentTool && active.pendingQuestion) return 'question';
  if (active?.status === 'paused') return 'pause';
  if (active?.status === 'interrupted') return 'interrupted';
  if (!active && latest?.status === 'error') return 'failed';
  return null;
}

import { lazyView } from '../../components/LazyView';
import { useActiveTask, useLatestTask } from '../../stores/tasks';
import { taskCard } from './taskCard';
import './tasks.css';

// The cards are not on the first screen: their code loads once it is
// painted, so that a card shown later waits for nothing.
const ApprovalCard = lazyView('the approval', () => import('./ApprovalCard').then((m) => m.ApprovalCard), { prefetch: true });
const cards = () => import('./TaskCards');
const ToolQuestionCard = lazyView('the question', () => cards().then((m) => m.ToolQuestionCard), { prefetch: true });
const PauseCard = lazyView('the task', () => cards().then((m) => m.PauseCard), { prefetch: true });
const InterruptedCard = lazyView('the task', () => cards().then((m) => m.InterruptedCard), { prefetch: true });
const FailedCard = lazyView('the task', () => cards().then((m) => m.FailedCard), { prefetch: true });

/**
 * The card for a task that needs the person, at the bottom of the
 * conversation above the composer: an approval, a question a running tool
 * asks (an MCP server's elicitation; the agent's own questions are in the
 * transcript), a paused limit, an interrupted task, the failure of the
 * last one. (What a stopped or failed task changed is in the transcript,
 * where it ended.)
 */
export function AgentPanel({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  let card = null;
  switch (taskCard(active, latest)) {
    case 'approval':
      card = <ApprovalCard key={`${active!.id}:${active!.pendingApproval!.callId}`} task={active!} approval={active!.pendingApproval!} />;
      break;
    case 'question':
      card = <ToolQuestionCard key={`${active!.id}:${active!.pendingQuestion}`} task={active!} />;
      break;
    case 'pause':
      card = <PauseCard key={active!.id} task={active!} />;
      break;
    case 'interrupted':
      card = <InterruptedCard key={active!.id} task={active!} />;
      break;
    case 'failed':
      card = <FailedCard key={latest!.id} task={latest!} />;
      break;
  }
  if (!card) return null;
  return <div className="agent-panel">{card}</div>;
}

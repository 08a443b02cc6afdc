import { useActiveTask, useLatestTask } from '../../stores/tasks';
import { FilesChangedCard } from '../checkpoints/FilesChangedCard';
import { ApprovalCard } from './ApprovalCard';
import { FailedCard, InterruptedCard, PauseCard, ToolQuestionCard } from './TaskCards';
import './tasks.css';

/**
 * The card for a task that needs the person, at the bottom of the
 * conversation above the composer: an approval, a question a running tool
 * asks (an MCP server's elicitation; the agent's own questions are in the
 * transcript), a paused limit, an interrupted task, the failure of the
 * last one, or the files the last one changed before it was stopped.
 */
export function AgentPanel({ conversationId }: { conversationId: string }) {
  const active = useActiveTask(conversationId);
  const latest = useLatestTask(conversationId);
  let card = null;
  if (active?.status === 'waiting_approval' && active.pendingApproval) {
    card = <ApprovalCard key={`${active.id}:${active.pendingApproval.callId}`} task={active} approval={active.pendingApproval} />;
  } else if (active?.status === 'waiting_user' && active.currentTool && active.pendingQuestion) {
    card = <ToolQuestionCard key={`${active.id}:${active.pendingQuestion}`} task={active} />;
  } else if (active?.status === 'paused') {
    card = <PauseCard key={active.id} task={active} />;
  } else if (active?.status === 'interrupted') {
    card = <InterruptedCard key={active.id} task={active} />;
  } else if (!active && latest?.status === 'error') {
    card = <FailedCard key={latest.id} task={latest} />;
  } else if (!active && latest?.status === 'cancelled') {
    // A stopped task has no Task complete card: what it changed is undone here.
    card = <FilesChangedCard key={latest.id} taskId={latest.id} className="agent-card" lead="The stopped task changed files:" />;
  }
  if (!card) return null;
  return <div className="agent-panel">{card}</div>;
}

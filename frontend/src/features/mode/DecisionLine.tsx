import type { Ref } from 'react';
import { rerunMessage } from '../../stores/branchActions';
import { useTaskAtWorkLater, useTasksStore } from '../../stores/tasks';
import './mode.css';

const SHOWN = new Set(['auto', 'forced', 'rerun']);

/**
 * How Errand chose to answer a message, on its reply: "Answered directly ·
 * Run as a task instead" or "Working on it as a task · Just answer
 * instead". The button re-runs the message the other way. Nothing shows
 * for a reply the conversation's Agent or Chat mode decided.
 */
export function DecisionLine({
  conversationId,
  taskId,
  messageId,
  rowRef,
  index,
}: {
  conversationId: string;
  taskId: string;
  messageId: string;
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
}) {
  const task = useTasksStore((s) => s.byId[taskId]);
  const busy = useTaskAtWorkLater(conversationId);
  const decision = task?.decision;
  if (!task || !decision || !SHOWN.has(decision.by)) {
    return <div ref={rowRef} data-index={index} className="decision-row is-empty" />;
  }
  const direct = task.mode === 'chat';
  const how = decision.by === 'forced' ? (direct ? ' (/chat)' : ' (/task)') : '';
  return (
    <div ref={rowRef} data-index={index} className="decision-row" title={decision.reason || undefined}>
      <span className="decision-text">
        {direct ? 'Answered directly' : 'Working on it as a task'}
        {how}
      </span>
      <span aria-hidden="true"> · </span>
      <button
        type="button"
        className="link-button decision-rerun"
        disabled={busy}
        title={busy ? 'Wait for the current reply to finish' : undefined}
        onClick={() => void rerunMessage(conversationId, messageId, direct ? 'agent' : 'chat')}
      >
        {direct ? 'Run as a task instead' : 'Just answer instead'}
      </button>
    </div>
  );
}

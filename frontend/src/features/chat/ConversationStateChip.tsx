import { useConversationsStore } from '../../stores/conversations';

/** Words for a conversation's state: '' for an active one. */
export function stateText(state: string | undefined, endedBy: string | undefined): string {
  if (state === 'completed') return 'Completed';
  if (state === 'ended') return endedBy === 'person' ? 'Ended by you' : 'Ended by the agent';
  return '';
}

/**
 * A conversation's state where it is not plainly active: Archived,
 * Completed, or Ended with the reason given (in full on hover). Short of
 * room, the reason gives way, never who ended it.
 */
export function ConversationStateChip({ conversationId, compact }: { conversationId: string; compact?: boolean }) {
  const conv = useConversationsStore((s) => s.byId[conversationId]);
  if (!conv) return null;
  const text = stateText(conv.state, conv.endedBy);
  const reason = conv.endReason ?? '';
  return (
    <>
      {conv.archived && !compact && <span className="state-chip state-archived">Archived</span>}
      {text && (
        <span className={`state-chip state-${conv.state}`} title={reason ? `${text}: ${reason}` : text}>
          <span className="state-label">{compact ? text.replace(/ by .*/, '') : text}</span>
          {reason && !compact && <span className="state-reason">: {reason}</span>}
        </span>
      )}
    </>
  );
}

import { useState } from 'react';
import { ERRAND_AGENT, useAgentsStore } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { useTaskAtWorkLater } from '../../stores/tasks';
import { chooseAgent } from './agentActions';
import './agents.css';

/**
 * The conversation's agent, in its header: a new conversation gets Errand
 * unless the person picks another, and the person may switch between tasks
 * (the model is told of the switch). A proactive agent picked for an empty
 * conversation starts at once.
 */
export function AgentPicker({ conversationId }: { conversationId: string }) {
  const agents = useAgentsStore((s) => s.list);
  const agentId = useConversationsStore((s) => s.byId[conversationId]?.agentId) || ERRAND_AGENT;
  const [pending, setPending] = useState(false);
  const current = agents.find((a) => a.id === agentId);
  const busy = useTaskAtWorkLater(conversationId);
  if (agents.length === 0) return null;
  return (
    <span className="agent-picker" title={busy ? 'The agent can be switched between tasks' : current?.description}>
      <span className="agent-dot" style={{ background: current?.color || undefined }} aria-hidden="true" />
      <select
        aria-label="Agent"
        className="agent-select"
        value={current ? agentId : ERRAND_AGENT}
        disabled={pending || busy}
        onChange={async (e) => {
          setPending(true);
          try {
            await chooseAgent(conversationId, e.target.value);
          } finally {
            setPending(false);
          }
        }}
      >
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
            {a.mode === 'proactive' ? ' · speaks first' : ''}
          </option>
        ))}
      </select>
    </span>
  );
}

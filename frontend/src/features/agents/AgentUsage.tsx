// Settings → Agents: how much each agent is used — its conversations, its
// completed tasks and when it was last used — read from Go when shown.
import { useEffect, useState } from 'react';
import * as api from '../../api';
import type { AgentStats } from '../../api/types';

/** Each agent's usage by id; empty until Go answers (or when it cannot). */
export function useAgentStats(): Record<string, AgentStats> {
  const [stats, setStats] = useState<Record<string, AgentStats>>({});
  useEffect(() => {
    let live = true;
    api.agentStats().then(
      (list) => live && setStats(Object.fromEntries(list.map((s) => [s.agentId, s]))),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return stats;
}

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** "3 conversations · 5 completed tasks · last used 28 Nov 2026". */
export function usageText(s: AgentStats | undefined): string {
  const conversations = plural(s?.conversations ?? 0, 'conversation');
  const tasks = plural(s?.completedTasks ?? 0, 'completed task');
  const last = s?.lastUsedAt
    ? `last used ${new Date(s.lastUsedAt).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`
    : 'never used';
  return `${conversations} · ${tasks} · ${last}`;
}

// The agent definitions: the built-in ones and the person's own, read from
// Go at start and again after every change made in Settings → Agents.
import { create } from 'zustand';
import * as api from '../api';
import type { AgentDefinition } from '../api/types';
import { reportError } from './notices';

export const ERRAND_AGENT = 'errand';

interface AgentsState {
  list: AgentDefinition[];
  loaded: boolean;
  set: (list: AgentDefinition[]) => void;
}

export const useAgentsStore = create<AgentsState>()((set) => ({
  list: [],
  loaded: false,
  set: (list) => set({ list, loaded: true }),
}));

/** Reads the agents again; a failure is reported and keeps the last list. */
export async function loadAgents(): Promise<void> {
  try {
    useAgentsStore.getState().set(await api.listAgents());
  } catch (err) {
    reportError(err, 'Could not read the agents');
  }
}

/** The agent with that id ('' or unknown: Errand, when it is known). */
export function agentById(list: readonly AgentDefinition[], id: string | undefined): AgentDefinition | undefined {
  return list.find((a) => a.id === (id || ERRAND_AGENT)) ?? list.find((a) => a.id === ERRAND_AGENT);
}

/** The agent of a conversation. */
export function useConversationAgent(agentId: string | undefined): AgentDefinition | undefined {
  const list = useAgentsStore((s) => s.list);
  return agentById(list, agentId);
}

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

/** Each conversation's agent switch still on its way to Go. */
const switching = new Map<string, Promise<void>>();

/**
 * Notes a switch of the conversation's agent on its way to Go: a message
 * sent meanwhile waits for it (see agentSwitched), so that it goes to the
 * agent the person just chose, not to the one before — and is not refused
 * because its task started before the switch arrived.
 */
export function trackAgentSwitch<T>(conversationId: string, call: Promise<T>): Promise<T> {
  const settled = (): void => {
    if (switching.get(conversationId) === done) switching.delete(conversationId);
  };
  const done = call.then(settled, settled);
  switching.set(conversationId, done);
  return call;
}

/** Resolves once no switch of the conversation's agent is on its way (whether it went through or not). */
export async function agentSwitched(conversationId: string): Promise<void> {
  await switching.get(conversationId);
}

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

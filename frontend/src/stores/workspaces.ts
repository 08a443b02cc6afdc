import { create } from 'zustand';
import type { WorkspaceInfo } from '../api/types';

/**
 * Each conversation's workspace folder as Go last said it, kept with the
 * folder the conversation had chosen then ('' for its own): the bar under
 * the title shows it at once — the first screen's answer, or the last read
 * of a conversation opened before — while Go is asked again.
 */
export interface WorkspacesStore {
  known: Record<string, WorkspaceInfo>;
  remember: (conversationId: string, chosen: string, info: WorkspaceInfo) => void;
  reset: () => void;
}

const key = (conversationId: string, chosen: string) => `${conversationId}\n${chosen}`;

export const useWorkspacesStore = create<WorkspacesStore>()((set) => ({
  known: {},
  remember: (id, chosen, info) => set((s) => ({ known: { ...s.known, [key(id, chosen)]: info } })),
  reset: () => set({ known: {} }),
}));

/** The folder last read for the conversation with this choice, or null. */
export function knownWorkspace(conversationId: string, chosen: string): WorkspaceInfo | null {
  return useWorkspacesStore.getState().known[key(conversationId, chosen)] ?? null;
}

import { create } from 'zustand';
import type { Fact } from '../api/types';

/** The facts a memory view shows: the global ones and, for a conversation, its own. */
export interface FactsEntry {
  /** null until the first list arrives. */
  list: Fact[] | null;
  /** Why the last read failed (as Go said it), or null. */
  error: unknown;
}

interface FactsStore {
  /** By conversation id; '' for the global facts alone (no conversation). */
  byConversation: Record<string, FactsEntry>;
  setList: (key: string, list: Fact[]) => void;
  fail: (key: string, error: unknown) => void;
  forget: (key: string) => void;
  reset: () => void;
}

const empty: FactsEntry = { list: null, error: null };

export const useFactsStore = create<FactsStore>()((set) => ({
  byConversation: {},
  setList: (key, list) => set((s) => ({ byConversation: { ...s.byConversation, [key]: { list, error: null } } })),
  fail: (key, error) =>
    set((s) => ({ byConversation: { ...s.byConversation, [key]: { ...(s.byConversation[key] ?? empty), error } } })),
  forget: (key) =>
    set((s) => {
      const { [key]: _gone, ...rest } = s.byConversation;
      return { byConversation: rest };
    }),
  reset: () => set({ byConversation: {} }),
}));

/** The facts shown for a conversation (null: none, the global facts alone). */
export function useFacts(conversationId: string | null): FactsEntry {
  return useFactsStore((s) => s.byConversation[conversationId ?? '']) ?? empty;
}

import { create } from 'zustand';
import type { Fact } from '../api/types';

/** The facts a memory view shows: the global ones and, for a conversation, its own. */
export interface FactsEntry {
  /** null until the first list arrives. */
  list: Fact[] | null;
  /** Why the last read failed (as Go said it), or null. */
  error: unknown;
  /** Under ALL_FACTS: the titles of the conversations whose facts are listed, by id. */
  titles?: Record<string, string>;
}

/** The key of every fact, of every conversation (Settings → Memory). */
export const ALL_FACTS = '*';

interface FactsStore {
  /** By conversation id; '' for the global facts alone (no conversation). */
  byConversation: Record<string, FactsEntry>;
  setList: (key: string, list: Fact[], titles?: Record<string, string>) => void;
  fail: (key: string, error: unknown) => void;
  forget: (key: string) => void;
  reset: () => void;
}

const empty: FactsEntry = { list: null, error: null };

export const useFactsStore = create<FactsStore>()((set) => ({
  byConversation: {},
  setList: (key, list, titles) =>
    set((s) => ({ byConversation: { ...s.byConversation, [key]: { list, error: null, ...(titles ? { titles } : {}) } } })),
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

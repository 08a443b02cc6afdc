import { create } from 'zustand';

/** Unsent composer text per conversation, so switching keeps it. */
export interface DraftsStore {
  drafts: Record<string, string>;
  setDraft: (conversationId: string, text: string) => void;
  reset: () => void;
}

export const useDraftsStore = create<DraftsStore>()((set) => ({
  drafts: {},
  setDraft: (id, text) =>
    set((s) => {
      if ((s.drafts[id] ?? '') === text) return {};
      const drafts = { ...s.drafts };
      if (text === '') delete drafts[id];
      else drafts[id] = text;
      return { drafts };
    }),
  reset: () => set({ drafts: {} }),
}));

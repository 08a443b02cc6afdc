import { useMemo } from 'react';
import { create } from 'zustand';
import type { ConversationView } from '../api/types';
import { useTasksStore } from './tasks';
import { baselineFromView, conversationTotals, type UsageBaseline, type UsageTotals } from './usageReducer';

export interface UsageStore {
  /** By conversation id: the totals its last LoadConversation reported. */
  baselines: Record<string, UsageBaseline>;
  setBaseline: (conversationId: string, view: Pick<ConversationView, 'tasks' | 'activeTask' | 'usage' | 'costUsd'>) => void;
  remove: (conversationId: string) => void;
  reset: () => void;
}

export const useUsageStore = create<UsageStore>()((set) => ({
  baselines: {},
  setBaseline: (id, view) => set((s) => ({ baselines: { ...s.baselines, [id]: baselineFromView(view) } })),
  remove: (id) =>
    set((s) => {
      if (!s.baselines[id]) return {};
      const baselines = { ...s.baselines };
      delete baselines[id];
      return { baselines };
    }),
  reset: () => set({ baselines: {} }),
}));

/** The conversation's total usage and spend, live; undefined until it was loaded. */
export function useConversationTotals(conversationId: string): UsageTotals | undefined {
  const base = useUsageStore((s) => s.baselines[conversationId]);
  const byId = useTasksStore((s) => s.byId);
  return useMemo(
    () => conversationTotals(base, Object.values(byId).filter((t) => t.conversationId === conversationId)),
    [base, byId, conversationId],
  );
}

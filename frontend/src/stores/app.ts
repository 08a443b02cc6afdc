import { create } from 'zustand';
import type { ModelInfo } from '../api/types';

export interface AppStore {
  modelInfo: ModelInfo | null;
  /** 'loading' until the first ListConversations answer; 'failed' if it failed. */
  startup: 'loading' | 'ready' | 'failed';
  setModelInfo: (info: ModelInfo | null) => void;
  setStartup: (s: AppStore['startup']) => void;
  reset: () => void;
}

export const useAppStore = create<AppStore>()((set) => ({
  modelInfo: null,
  startup: 'loading',
  setModelInfo: (modelInfo) => set({ modelInfo }),
  setStartup: (startup) => set({ startup }),
  reset: () => set({ modelInfo: null, startup: 'loading' }),
}));

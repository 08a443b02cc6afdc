import { create } from 'zustand';
import type { HealthStatus, ModelInfo } from '../api/types';

export interface AppStore {
  modelInfo: ModelInfo | null;
  /**
   * 'loading' until the first ListConversations answer; 'failed' if it
   * failed; 'unavailable' when Health.Status said Errand cannot work.
   */
  startup: 'loading' | 'ready' | 'failed' | 'unavailable';
  /** Health.Status, asked first at startup; null until it answered (or if it could not). */
  health: HealthStatus | null;
  /** The transcript shows the models' thinking blocks (Settings.showThinking). */
  showThinking: boolean;
  setModelInfo: (info: ModelInfo | null) => void;
  setHealth: (h: HealthStatus | null) => void;
  setStartup: (s: AppStore['startup']) => void;
  setShowThinking: (on: boolean) => void;
  reset: () => void;
}

export const useAppStore = create<AppStore>()((set) => ({
  modelInfo: null,
  startup: 'loading',
  health: null,
  showThinking: true,
  setModelInfo: (modelInfo) => set({ modelInfo }),
  setHealth: (health) => set({ health }),
  setStartup: (startup) => set({ startup }),
  setShowThinking: (showThinking) => set({ showThinking }),
  reset: () => set({ modelInfo: null, startup: 'loading', health: null, showThinking: true }),
}));

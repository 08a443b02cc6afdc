// The models of the provider in use, for the chat header's model menu
// (Providers.CurrentModels). Loaded on first use and again whenever the
// provider changes.
import { create } from 'zustand';

export interface ModelsStore {
  /** The provider's model ids; null until loaded. */
  list: string[] | null;
  loading: boolean;
  /** Why the list could not be read (the server is down, say). */
  error: string | null;
  set: (patch: Partial<Pick<ModelsStore, 'list' | 'loading' | 'error'>>) => void;
  reset: () => void;
}

export const useModelsStore = create<ModelsStore>()((set) => ({
  list: null,
  loading: false,
  error: null,
  set: (patch) => set(patch),
  reset: () => set({ list: null, loading: false, error: null }),
}));

// Which model answers: the default (ModelInfo), the provider's list
// (CurrentModels) and a conversation's own choice (SetModel). Asked again
// after the provider is saved, so the header and the demo banner follow
// without a restart.
import * as api from '../api';
import { toApiError } from '../api/errors';
import { useAppStore } from './app';
import { useConversationsStore } from './conversations';
import { useModelsStore } from './models';
import { reportError } from './notices';

let listInFlight: Promise<void> | null = null;
let listGeneration = 0;

/** Loads the provider's model list (once; force asks again). Never rejects. */
export function loadCurrentModels(force = false): Promise<void> {
  const store = useModelsStore.getState();
  if (!force && (store.list !== null || store.error !== null)) return Promise.resolve();
  if (!force && listInFlight) return listInFlight;
  const gen = ++listGeneration;
  useModelsStore.getState().set({ loading: true });
  const run = Promise.resolve()
    .then(() => api.currentModels())
    .then(
      (list) => {
        if (gen === listGeneration) useModelsStore.getState().set({ list, loading: false, error: null });
      },
      (err) => {
        if (gen === listGeneration) {
          useModelsStore.getState().set({ list: null, loading: false, error: toApiError(err).message });
        }
      },
    )
    .finally(() => {
      if (listInFlight === run) listInFlight = null;
    });
  listInFlight = run;
  return run;
}

/**
 * Asks Go again which model answers by default, and for the provider's
 * models. Called after the provider was saved. Never rejects.
 */
export async function refreshModelInfo(): Promise<void> {
  const models = loadCurrentModels(true);
  try {
    useAppStore.getState().setModelInfo(await api.modelInfo());
  } catch (err) {
    reportError(err, 'Could not read the model settings');
  }
  await models;
}

/** Chooses the conversation's model ('' = the default). Resolves false (after saying why) if Go refused. */
export async function setConversationModel(conversationId: string, model: string): Promise<boolean> {
  const store = useConversationsStore.getState();
  const prev = store.byId[conversationId];
  if (!prev) return false;
  store.patch(conversationId, { model });
  try {
    const c = await api.setModel(conversationId, model);
    useConversationsStore.getState().upsert(c);
    return true;
  } catch (err) {
    useConversationsStore.getState().patch(conversationId, { model: prev.model });
    reportError(err, 'Could not change the model');
    return false;
  }
}

// The models a provider's server lists, for the model field: asked once per
// address and key (again after a failure).
import { useCallback, useRef, useState, type RefObject } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ProviderView } from '../../api';
import { DEMO, checkProvider, connectionKey, inputFromForm, type ProviderForm } from './providerForm';

export interface ModelList {
  /** The address and key the list is for (connectionKey). */
  key: string;
  list: string[] | null;
  loading: boolean;
  error: string | null;
}

/** The list, a way to ask for it (quiet: a failure is not said), and a way to set it from a connection test. */
export function useModelList(live: RefObject<boolean>) {
  const [models, setModels] = useState<ModelList>({ key: '', list: null, loading: false, error: null });
  const modelsRef = useRef(models);
  modelsRef.current = models;

  const loadModels = useCallback(
    (f: ProviderForm, v: ProviderView | null, quiet = false) => {
      if (f.preset === DEMO || checkProvider(f, false)) return;
      const key = connectionKey(f, v);
      const m = modelsRef.current;
      if (m.key === key && (m.loading || m.list !== null)) return;
      const next = { key, list: null, loading: true, error: null };
      modelsRef.current = next;
      setModels(next);
      Promise.resolve()
        .then(() => api.listModels(inputFromForm(f, v)))
        .then(
          (list) => {
            if (live.current) setModels((cur) => (cur.key === key ? { key, list, loading: false, error: null } : cur));
          },
          (err) => {
            if (!live.current) return;
            const message = quiet ? null : toApiError(err).message;
            setModels((cur) => (cur.key === key ? { key, list: null, loading: false, error: message } : cur));
          },
        );
    },
    [live],
  );
  return { models, setModels, loadModels };
}

// The provider section's form: the presets, what is stored, what is edited,
// the connection test and the one way to save the provider.
import { useCallback, useEffect, useRef, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ProviderPreset, ProviderView, Verdict } from '../../api';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { refreshModelInfo } from '../../stores/modelActions';
import {
  DEMO,
  checkProvider,
  connectionKey,
  formFromView,
  inputFromForm,
  providerChanged,
  switchPreset,
  type KeyMode,
  type ProviderField,
  type ProviderForm,
} from './providerForm';
import { useModelList } from './useModelList';

/** Why the provider was not tested or saved, at the field it is about. */
export interface ProviderError {
  message: string;
  field?: ProviderField;
  report?: ErrorReport;
}

const PROVIDER_FIELDS: readonly string[] = ['baseUrl', 'apiKey', 'model'] satisfies ProviderField[];

/** The field an error from Go is about, as Go names it (the ProviderInput's JSON). */
function providerField(goField: string | undefined): ProviderField | undefined {
  return goField && PROVIDER_FIELDS.includes(goField) ? (goField as ProviderField) : undefined;
}

const now = () => new Date().toISOString();

/** The presets and what is stored, loaded at once; which local servers run, checked at once. */
function useProviderData(live: { current: boolean }) {
  const [presets, setPresets] = useState<ProviderPreset[] | null>(null);
  const [view, setView] = useState<ProviderView | null>(null);
  const [form, setForm] = useState<ProviderForm | null>(null);
  const [loadError, setLoadError] = useState<ErrorReport | null>(null);
  const [detected, setDetected] = useState<ReadonlySet<string>>(new Set());
  const [detectError, setDetectError] = useState<ErrorReport | null>(null);

  const load = useCallback(() => {
    setLoadError(null);
    Promise.all([Promise.resolve().then(() => api.getProvider()), Promise.resolve().then(() => api.providerPresets())]).then(
      ([v, p]) => {
        if (!live.current) return;
        if (p.length === 0) return setLoadError({ message: 'Errand listed no kinds of model server.', code: 'internal' });
        setPresets(p);
        setView(v);
        setForm(formFromView(v));
      },
      (err) => live.current && setLoadError(reportOf(toApiError(err), now())),
    );
  }, [live]);

  /** Which local servers run, to mark them; a failure is said, not hidden. */
  const detect = useCallback(() => {
    setDetectError(null);
    Promise.resolve()
      .then(() => api.detectProviders())
      .then(
        (found) => live.current && setDetected(new Set((found ?? []).map((p) => p.id))),
        (err) => live.current && setDetectError(reportOf(toApiError(err), now())),
      );
  }, [live]);

  useEffect(() => {
    load();
    detect();
  }, [load, detect]);
  return { presets, view, setView, form, setForm, loadError, detected, detectError, load, detect };
}

/**
 * The provider form. save() is the one way the provider is stored (the
 * settings dialog's Save calls it through the section's handle); test()
 * tries the form without saving it.
 */
export function useProviderForm(onSaved?: (view: ProviderView) => void) {
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const data = useProviderData(live);
  const { presets, view, setView, form, setForm, detected } = data;
  const { models, setModels, loadModels } = useModelList(live);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  /** The test call itself failed (not the server): its error, for Copy details. */
  const [testError, setTestError] = useState<ErrorReport | null>(null);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<ProviderError | null>(null);
  const preset = presets?.find((p) => p.id === form?.preset);
  const connKey = form ? connectionKey(form, view) : '';

  // The stored provider's models, for the model field (quietly: a server
  // that is down says so when it is tested).
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (!form || loadedOnce.current) return;
    loadedOnce.current = true;
    if (form.preset !== DEMO) loadModels(form, view, true);
  }, [form, view, loadModels]);

  const edit = (fn: (f: ProviderForm) => ProviderForm, { keepVerdict = false } = {}) => {
    setForm((f) => (f ? fn(f) : f));
    setError(null);
    if (!keepVerdict) {
      setVerdict(null);
      setTestError(null);
    }
  };

  const choosePreset = (pid: string) => {
    if (!form || !presets) return;
    const next = switchPreset(form, pid, view, presets);
    edit(() => next);
    if (detected.has(pid)) loadModels(next, view, true);
  };

  const setKeyMode = (mode: KeyMode) => edit((f) => ({ ...f, keyMode: mode, apiKey: '' }));

  /** A verdict that reached the server lists its models; a first model is picked if none is. */
  const took = (v: Verdict, key: string) => {
    setVerdict(v);
    if (v.kind !== 'ok' && v.kind !== 'model_not_found') return;
    const list = v.models ?? [];
    setModels({ key, list, loading: false, error: null });
    // The preset's usual model if the server has it, else the first listed.
    setForm((f) => {
      if (!f || f.model.trim() !== '' || connectionKey(f, view) !== key) return f;
      const pick = preset?.model && list.includes(preset.model) ? preset.model : (list[0] ?? '');
      return pick ? { ...f, model: pick } : f;
    });
  };

  const test = async () => {
    if (!form || testing) return;
    const local = checkProvider(form, false);
    setError(local);
    if (local) return setVerdict(null);
    setTesting(true);
    setTestError(null);
    try {
      const v = await api.testConnection(inputFromForm(form, view));
      if (live.current) took(v, connKey);
    } catch (err) {
      if (!live.current) return;
      const e = toApiError(err);
      setVerdict({ ok: false, kind: 'error', message: e.message, modelCount: 0 });
      setTestError(reportOf(e, now()));
    } finally {
      if (live.current) setTesting(false);
    }
  };

  /** The form's own check before saving: the field is marked and the reason said. */
  const check = (): boolean => {
    const local = form ? checkProvider(form, true) : null;
    if (local) setError(local);
    return !!form && !local;
  };

  const save = async (): Promise<{ ok: boolean; view?: ProviderView }> => {
    if (!form || !check()) return { ok: false };
    setError(null);
    try {
      const stored = await api.saveProvider(inputFromForm(form, view));
      if (!live.current) return { ok: true, view: stored };
      setView(stored);
      setForm(formFromView(stored));
      onSaved?.(stored);
      void refreshModelInfo();
      return { ok: true, view: stored };
    } catch (err) {
      if (!live.current) return { ok: false };
      const e = toApiError(err);
      const message = e.message || 'Errand could not save the provider.';
      setError({ message, field: providerField(e.field), report: { ...reportOf(e, now()), message } });
      return { ok: false };
    }
  };

  const changed = !!form && providerChanged(form, view);
  return {
    ...data,
    preset,
    connKey,
    models,
    loadModels,
    verdict,
    testError,
    testing,
    error,
    changed,
    edit,
    choosePreset,
    setKeyMode,
    test,
    check,
    save,
  };
}

/** What the provider form gives its fields. */
export type ProviderFormState = ReturnType<typeof useProviderForm>;

// The settings dialog's form: what was loaded, what is edited, and the one
// way to store settings.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ProviderView, Settings } from '../../api';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { useAppStore } from '../../stores/app';
import type { ProviderSectionHandle } from './ProviderSection';
import { formFromSettings, settingsFromForm, type SettingsForm } from './settingsForm';
import {
  builtInPrompt,
  checkSettings,
  providerSavedText,
  readable,
  savedText,
  settingsError,
  type FormError,
} from './settingsText';

/** The settings' fields a form's text field edits. */
export type TextField =
  | 'maxSteps'
  | 'maxMinutes'
  | 'maxCostUsd'
  | 'stepDelayMs'
  | 'modelFirstByteTimeoutSec'
  | 'modelIdleTimeoutSec'
  | 'reflectionRounds'
  | 'checkpointLimitMb'
  | 'checkpointExclude';

/** What a group of fields gets from the form. */
export interface FieldGroupProps {
  form: SettingsForm;
  edit: (fn: (f: SettingsForm) => SettingsForm) => void;
  /** The form's error is about this field: mark it, and point it at errorId. */
  bad: (field: FormError['field']) => boolean;
  errorId: string;
}

// (The price rows' keys are React's, not settings.)
const asSaved = (f: SettingsForm) => JSON.stringify(f, (k, v: unknown) => (k === 'key' ? undefined : v));

/** Loads the settings and the built-in instructions; load() again after a failure. */
function useLoaded() {
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [defaultPrompt, setDefaultPrompt] = useState('');
  const [promptError, setPromptError] = useState<ErrorReport | null>(null);
  const [loadError, setLoadError] = useState<ErrorReport | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const load = useCallback(() => {
    setLoadError(null);
    setPromptError(null);
    let live = true;
    Promise.all([Promise.resolve().then(() => api.getSettings()), builtInPrompt()]).then(
      ([s, { prompt, error }]) => {
        if (!live) return;
        setDefaultPrompt(prompt);
        setPromptError(error);
        setLoaded(s);
        setForm(formFromSettings(s, prompt));
        useAppStore.getState().setShowThinking(s.showThinking !== false);
      },
      (err) => {
        if (!live) return;
        const e = toApiError(err);
        const message = readable(e.message) ? e.message : 'Errand could not read the settings.';
        setLoadError({ ...reportOf(e, new Date().toISOString()), message });
      },
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => load(), [load]);

  /** Try again for the built-in instructions; an empty field (which means them) shows them. */
  const reloadPrompt = async () => {
    setPromptError(null);
    const { prompt, error } = await builtInPrompt();
    setPromptError(error);
    if (error) return;
    setDefaultPrompt(prompt);
    setForm((f) => (f && f.systemPrompt.trim() === '' ? { ...f, systemPrompt: prompt } : f));
  };
  return { loaded, setLoaded, form, setForm, defaultPrompt, promptError, loadError, load, reloadPrompt };
}

/**
 * The settings form. store() is the one way settings are saved: Save sends
 * the form; a switch that applies at once sends its change alone, on top of
 * what is stored, and the form's unsaved edits stay as they are.
 */
export function useSettingsForm(providerRef: RefObject<ProviderSectionHandle | null>) {
  const data = useLoaded();
  const { loaded, setLoaded, form, setForm, defaultPrompt } = data;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  /** What the last Save stored, said until the next edit (or a few seconds). */
  const [saved, setSaved] = useState<string | null>(null);
  const [providerDirty, setProviderDirty] = useState(false);
  // What is stored, as the next save builds on it (a state update comes too late for a Save in progress).
  const loadedRef = useRef(loaded);
  loadedRef.current = loaded;

  useEffect(() => {
    if (!saved) return;
    const t = setTimeout(() => setSaved(null), 4000);
    return () => clearTimeout(t);
  }, [saved]);

  const edit = (fn: (f: SettingsForm) => SettingsForm) => {
    setForm((f) => (f ? fn(f) : f));
    setSaved(null);
  };

  const keep = (stored: Settings) => {
    loadedRef.current = stored;
    setLoaded(stored);
    useAppStore.getState().setShowThinking(stored.showThinking !== false);
  };

  const store = async (change?: Partial<Settings>): Promise<Settings | null> => {
    const base = loadedRef.current;
    if (!base) return null;
    const next = change ? { ...base, ...change } : form && settingsFromForm(form, base, defaultPrompt);
    if (!next) return null;
    const stored = await api.saveSettings(next);
    if (!change) {
      keep(stored);
      setForm(formFromSettings(stored, defaultPrompt));
      return stored;
    }
    const current = loadedRef.current ?? base;
    const picked = Object.fromEntries(Object.keys(change).map((k) => [k, stored[k as keyof Settings]]));
    keep({ ...current, ...picked });
    return stored;
  };

  // The settings keep sending back what was loaded, so they must carry the provider just saved.
  const onProviderSaved = useCallback(
    (v: ProviderView) => {
      const l = loadedRef.current;
      if (l) keep({ ...l, provider: { preset: v.preset, baseUrl: v.baseUrl, model: v.model } });
    },
    // keep uses only refs and stable setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const settingsDirty = !!form && !!loaded && asSaved(form) !== asSaved(formFromSettings(loaded, defaultPrompt));
  const dirty = settingsDirty || providerDirty;

  /** Saves the provider if it changed; false (and the reason said) if that failed. */
  const saveProvider = async (): Promise<{ ok: boolean; view?: ProviderView }> => {
    const provider = providerRef.current;
    if (!providerDirty || !provider) return { ok: true };
    const p = await provider.saveIfChanged();
    if (!p.ok) setError({ message: 'The model provider could not be saved (see above), so nothing was saved.' });
    return p;
  };

  /** Saves the settings after the provider; a failure says what was and was not saved. */
  const saveRest = async (storedProvider: ProviderView | undefined): Promise<boolean> => {
    if (!settingsDirty || !form) return true;
    try {
      await store();
      return true;
    } catch (err) {
      const why = settingsError(err, form);
      const message = storedProvider
        ? `${providerSavedText(storedProvider)}, but the other settings were not: ${why.message}`
        : why.message;
      setError({ ...why, message });
      return false;
    }
  };

  // Saves what changed: nothing until both parts pass the form's checks,
  // then the provider, then the rest.
  const save = async () => {
    if (saving || !dirty) return;
    const providerOk = !providerDirty || !providerRef.current || providerRef.current.check();
    const local = settingsDirty && form ? checkSettings(form) : null;
    setSaved(null);
    if (local || !providerOk) {
      setError(local ?? { message: 'The model provider could not be saved (see above), so nothing was saved.' });
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const p = await saveProvider();
      if (p.ok && (await saveRest(p.view))) setSaved(savedText(p.view));
    } finally {
      setSaving(false);
    }
  };

  /** Changes not saved, in the settings or the provider. */
  const unsaved = () => settingsDirty || !!providerRef.current?.changed();

  return { ...data, edit, store, save, saving, error, saved, dirty, unsaved, setProviderDirty, onProviderSaved };
}

/** A function that sets one text field of the form. */
export function setterOf(edit: FieldGroupProps['edit'], field: TextField): (v: string) => void {
  return (v) => edit((f) => ({ ...f, [field]: v }));
}

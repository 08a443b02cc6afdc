import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ProviderPreset, ProviderView, ReasoningEffort, Verdict } from '../../api/types';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { SettingsError } from './SettingsError';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { useAppStore } from '../../stores/app';
import { refreshModelInfo } from '../../stores/modelActions';
import { ModelCombobox } from './ModelCombobox';
import { EFFORTS } from './settingsForm';
import {
  CUSTOM,
  DEMO,
  checkProvider,
  connectionKey,
  formFromView,
  hasStoredKey,
  inputFromForm,
  keyState,
  modelCount,
  unreachableHint,
  providerChanged,
  switchPreset,
  verdictLook,
  type KeyMode,
  type ProviderField,
  type ProviderForm,
} from './providerForm';

/** What the settings dialog can ask of the provider section (it has no Save of its own). */
export interface ProviderSectionHandle {
  /**
   * Whether a changed provider can be saved as the form can tell (address,
   * model); if not, the section marks the field and says why.
   */
  check: () => boolean;
  /**
   * Saves the provider if the form differs from what is stored. ok is
   * false if that failed (the section says why, at the field); view is
   * what was stored, when something was.
   */
  saveIfChanged: () => Promise<{ ok: boolean; view?: ProviderView }>;
  /** The form differs from what is stored. */
  changed: () => boolean;
}

/** Go's reasons start in lower case; a sentence on its own does not. */
function sentence(message: string): string {
  const m = message.trim();
  if (m === '') return m;
  // An address stays as it is ("http://…", not "Http://…").
  const head = /^[a-z][a-z0-9+.-]*:\/\//.test(m) ? m : m.charAt(0).toUpperCase() + m.slice(1);
  return head + (/[.!?]$/.test(m) ? '' : '.');
}

/** Which field Go's reason is about. */
function fieldOf(message: string): ProviderField | undefined {
  if (/address|url/i.test(message)) return 'baseUrl';
  if (/model/i.test(message)) return 'model';
  if (/key/i.test(message)) return 'apiKey';
  return undefined;
}

/** "api.openai.com", "localhost:11434". */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A preset's name as the choice shows it ("Custom (OpenAI-compatible)" says the rest below it). */
function presetName(p: ProviderPreset): string {
  return p.id === CUSTOM ? 'Custom' : p.name;
}

function presetMeta(p: ProviderPreset): string {
  if (p.id === DEMO) return 'No network, canned replies';
  if (p.id === CUSTOM) return 'Any OpenAI-compatible server';
  if (p.local) {
    let port = '';
    try {
      port = new URL(p.baseUrl).port;
    } catch {
      // not a URL: no port to show
    }
    return port ? `This computer, port ${port}` : 'This computer';
  }
  return hostOf(p.baseUrl);
}

function VerdictIcon({ kind }: { kind: string }) {
  const common = { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': true, className: 'verdict-icon' } as const;
  switch (kind) {
    case 'ok':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="7" fill="currentColor" opacity="0.16" />
          <path d="M4.6 8.3 7 10.6l4.4-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case 'wrong_key':
      return (
        <svg {...common}>
          <circle cx="5.5" cy="8" r="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M8.5 8h6M12.5 8v2.5M14.5 8v2" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    case 'model_not_found':
      return (
        <svg {...common}>
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M10.4 10.4 14 14M5.3 5.3l3.4 3.4M8.7 5.3 5.3 8.7" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    case 'unreachable':
      return (
        <svg {...common}>
          <path
            d="M2 6.2a9 9 0 0 1 12 0M4.2 8.6a5.8 5.8 0 0 1 7.6 0M6.5 11a2.4 2.4 0 0 1 3 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
          <path d="M2.5 2.5l11 11" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    default:
      return (
        <svg {...common}>
          <path d="M8 1.8 15 14H1z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
          <path d="M8 6v3.6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="8" cy="11.8" r="0.9" fill="currentColor" />
        </svg>
      );
  }
}

/**
 * A connection test's outcome: headline, Go's message, an icon and a colour
 * by kind; a failure can be copied (report, when the test call itself
 * failed, says more than the verdict).
 */
export function VerdictView({
  verdict,
  report,
  presetId = '',
}: {
  verdict: Verdict;
  report?: ErrorReport | null;
  presetId?: string;
}) {
  const look = verdictLook(verdict.kind, verdict.message);
  const hint = verdict.kind === 'unreachable' ? unreachableHint(presetId) : '';
  const detail =
    verdict.kind === 'ok'
      ? `${modelCount(verdict.modelCount)} available on this server.`
      : sentence(verdict.message || 'The server did not answer as expected') + (hint ? ` ${hint}` : '');
  return (
    <>
      <div className={`verdict verdict-${look.tone}`} data-testid="verdict" data-kind={verdict.kind}>
        <VerdictIcon kind={verdict.kind} />
        <div className="verdict-body">
          <strong className="verdict-title">{look.title}</strong>
          <span className="verdict-message">{detail}</span>
        </div>
      </div>
      {!verdict.ok && (
        <CopyDetailsButton className="verdict-copy" report={report ?? { message: `${look.title}: ${detail}`, code: verdict.kind }} />
      )}
    </>
  );
}

interface ModelList {
  key: string;
  list: string[] | null;
  loading: boolean;
  error: string | null;
}

/** How hard the model chosen is asked to think: a setting kept by model name, edited beside it. */
export interface EffortControl {
  efforts: Record<string, ReasoningEffort>;
  onChange: (model: string, effort: ReasoningEffort | '') => void;
}

/**
 * The model provider: which server (presets, with the local ones that are
 * running marked), its address, its API key (stored in the keyring or the
 * 0600 file: the form only knows whether there is one), the default model
 * (from the server's list, or typed), its reasoning effort (when the
 * dialog passes the settings' efforts) and a connection test with a clear
 * verdict. The dialog's Save saves it (through the handle), and hears
 * through onChanged whether it differs from what is stored.
 */
export const ProviderSection = forwardRef<
  ProviderSectionHandle,
  {
    onSaved?: (view: ProviderView) => void;
    onChanged?: (changed: boolean) => void;
    autoFocus?: boolean;
    effort?: EffortControl;
  }
>(function ProviderSection({ onSaved, onChanged, autoFocus = false, effort }, ref) {
  const [presets, setPresets] = useState<ProviderPreset[] | null>(null);
  const [detected, setDetected] = useState<ReadonlySet<string>>(new Set());
  const [detectError, setDetectError] = useState<ErrorReport | null>(null);
  const [view, setView] = useState<ProviderView | null>(null);
  const [loadError, setLoadError] = useState<ErrorReport | null>(null);
  const [form, setForm] = useState<ProviderForm | null>(null);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  /** The test call itself failed (not the server): its error, for Copy details. */
  const [testError, setTestError] = useState<ErrorReport | null>(null);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<{ message: string; field?: ProviderField; report?: ErrorReport } | null>(null);
  const [models, setModels] = useState<ModelList>({ key: '', list: null, loading: false, error: null });
  const modelInfo = useAppStore((s) => s.modelInfo);
  const baseId = useId();
  const id = (n: string) => `${baseId}-${n}`;
  const keyInputRef = useRef<HTMLInputElement>(null);
  const focusKey = useRef(false);
  const groupRef = useRef<HTMLDivElement>(null);
  const verdictRef = useRef<HTMLDivElement>(null);
  const feedbackRef = useRef<HTMLDivElement>(null);
  const didFocus = useRef(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const load = useCallback(() => {
    setLoadError(null);
    Promise.all([
      Promise.resolve().then(() => api.getProvider()),
      Promise.resolve().then(() => api.providerPresets()),
    ]).then(
      ([v, p]) => {
        if (!live.current) return;
        if (p.length === 0) {
          setLoadError({ message: 'Errand listed no kinds of model server.', code: 'internal' });
          return;
        }
        setPresets(p);
        setView(v);
        setForm(formFromView(v));
      },
      (err) => {
        if (live.current) setLoadError(reportOf(toApiError(err), new Date().toISOString()));
      },
    );
  }, []);

  /** Which local servers run, to mark them; a failure is said, not hidden. */
  const detect = useCallback(() => {
    setDetectError(null);
    Promise.resolve()
      .then(() => api.detectProviders())
      .then(
        (found) => {
          if (live.current) setDetected(new Set((found ?? []).map((p) => p.id)));
        },
        (err) => {
          if (!live.current) return;
          const report = reportOf(toApiError(err), new Date().toISOString());
          setDetectError({ ...report, message: sentence(report.message) });
        },
      );
  }, []);
  useEffect(() => {
    load();
    detect();
  }, [load, detect]);

  const preset = presets?.find((p) => p.id === form?.preset);
  const connKey = form ? connectionKey(form, view) : '';

  /** Asks the server for its models (once per address and key; again after a failure). */
  const modelsRef = useRef(models);
  modelsRef.current = models;
  const loadModels = useCallback((f: ProviderForm, v: ProviderView | null, quiet = false) => {
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
          const message = quiet ? null : sentence(toApiError(err).message);
          setModels((cur) => (cur.key === key ? { key, list: null, loading: false, error: message } : cur));
        },
      );
  }, []);

  // The stored provider's models, for the model field (quietly: a server
  // that is down says so when it is tested).
  const loadedOnce = useRef(false);
  useEffect(() => {
    if (!form || loadedOnce.current) return;
    loadedOnce.current = true;
    if (form.preset !== DEMO) loadModels(form, view, true);
  }, [form, view, loadModels]);

  // Opened from "Connect a model": the provider choice has the focus.
  useEffect(() => {
    if (!autoFocus || didFocus.current || !form || !presets) return;
    didFocus.current = true;
    const radio = groupRef.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    radio?.focus();
    if (typeof groupRef.current?.scrollIntoView === 'function') groupRef.current.scrollIntoView({ block: 'nearest' });
  }, [autoFocus, form, presets]);

  // A new verdict is scrolled into view (it comes below the buttons).
  useEffect(() => {
    const el = verdictRef.current;
    if (verdict && el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [verdict]);

  useEffect(() => {
    if (focusKey.current) {
      focusKey.current = false;
      keyInputRef.current?.focus();
    }
  });

  // An error the dialog's Save met here is scrolled into view (the Save is at the bottom).
  useEffect(() => {
    const el = feedbackRef.current;
    if (error && el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [error]);

  // The dialog enables its Save, and asks before discarding, by this.
  const changed = !!form && providerChanged(form, view);
  useEffect(() => {
    onChanged?.(changed);
  }, [changed, onChanged]);

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

  const setKeyMode = (mode: KeyMode) => {
    if (mode === 'replace') focusKey.current = true;
    edit((f) => ({ ...f, keyMode: mode, apiKey: '' }));
  };

  const test = async () => {
    if (!form || testing) return;
    const local = checkProvider(form, false);
    if (local) {
      setError(local);
      setVerdict(null);
      return;
    }
    setTesting(true);
    setError(null);
    setTestError(null);
    const key = connKey;
    try {
      const v = await api.testConnection(inputFromForm(form, view));
      if (!live.current) return;
      setVerdict(v);
      if (v.kind === 'ok' || v.kind === 'model_not_found') {
        const list = v.models ?? [];
        setModels({ key, list, loading: false, error: null });
        // A first model: the preset's usual one if the server has it, else the first listed.
        setForm((f) => {
          if (!f || f.model.trim() !== '' || connectionKey(f, view) !== key) return f;
          const pick = preset?.model && list.includes(preset.model) ? preset.model : (list[0] ?? '');
          return pick ? { ...f, model: pick } : f;
        });
      }
    } catch (err) {
      if (!live.current) return;
      const e = toApiError(err);
      setVerdict({ ok: false, kind: 'error', message: e.message, modelCount: 0 });
      setTestError(reportOf(e, new Date().toISOString()));
    } finally {
      if (live.current) setTesting(false);
    }
  };

  /** The form's own check before saving: the field is marked and the reason said. */
  const check = (): boolean => {
    if (!form) return false;
    const local = checkProvider(form, true);
    if (local) setError(local);
    return !local;
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
      const message = sentence(e.message) || 'Errand could not save the provider.';
      setError({ message, field: fieldOf(e.message), report: { ...reportOf(e, new Date().toISOString()), message } });
      return { ok: false };
    }
  };

  const saveRef = useRef(save);
  saveRef.current = save;
  const checkRef = useRef(check);
  checkRef.current = check;
  const formRef = useRef(form);
  formRef.current = form;
  const viewRef = useRef(view);
  viewRef.current = view;
  useImperativeHandle(
    ref,
    () => ({
      check: () => {
        const f = formRef.current;
        return !f || !providerChanged(f, viewRef.current) || checkRef.current();
      },
      saveIfChanged: async () => {
        const f = formRef.current;
        if (!f || !providerChanged(f, viewRef.current)) return { ok: true };
        return saveRef.current();
      },
      changed: () => !!formRef.current && providerChanged(formRef.current, viewRef.current),
    }),
    [],
  );

  const envNote = view?.envOverride ? (
    <p className="provider-note provider-note-env" role="note">
      <strong>The environment overrides these settings.</strong> Errand was started with <code>OPENAI_BASE_URL</code> or{' '}
      <code>OPENAI_API_KEY</code> set, so it uses{' '}
      {modelInfo && modelInfo.source === 'environment' ? (
        <>
          <code>{modelInfo.model}</code> at <code>{modelInfo.baseUrl}</code>
        </>
      ) : (
        'the server they name'
      )}
      . What you save here is kept, and takes over once those variables are unset.
    </p>
  ) : null;

  let body: ReactNode;
  if (!form || !presets) {
    body = loadError ? (
      <SettingsError
        report={loadError}
        urgent
        onRetry={() => {
          load();
          detect();
        }}
      >
        Could not load the provider: {loadError.message}
      </SettingsError>
    ) : (
      <p className="muted">Loading…</p>
    );
  } else {
    const ks = keyState(form, view);
    const bad = (f: ProviderField) => error?.field === f;
    const errorId = id('error');
    const isDemo = form.preset === DEMO;
    const needsKey = !!preset?.needsKey;
    body = (
      <>
        <div
          ref={groupRef}
          className="preset-grid"
          role="radiogroup"
          aria-labelledby={id('preset-label')}
        >
          <span id={id('preset-label')} className="sr-only">
            Provider
          </span>
          {presets.map((p) => {
            const checked = form.preset === p.id;
            const running = detected.has(p.id);
            const pid = id(`preset-${p.id}`);
            return (
              <label key={p.id} className={`preset-option${checked ? ' is-checked' : ''}${p.id === DEMO ? ' is-demo' : ''}`}>
                <input
                  type="radio"
                  name={id('preset')}
                  value={p.id}
                  checked={checked}
                  aria-labelledby={`${pid}-name`}
                  aria-describedby={`${pid}-meta`}
                  onChange={() => choosePreset(p.id)}
                />
                <span className="preset-text">
                  <span className="preset-name">
                    <span id={`${pid}-name`}>{presetName(p)}</span>
                    {running && (
                      <span className="preset-badge" aria-hidden="true" title={`${p.name} answers at ${p.baseUrl}`}>
                        Running
                      </span>
                    )}
                  </span>
                  <span className="preset-meta" id={`${pid}-meta`}>
                    {presetMeta(p)}
                    {running && <span className="sr-only"> (running now)</span>}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        {/* Said once, beside the choices, which all still work. */}
        {detectError && (
          <SettingsError report={detectError} onRetry={detect} retryLabel="Check again" className="provider-detect-error">
            Could not check which model servers are running on this computer: {detectError.message} Ollama and LM
            Studio can still be chosen and tested.
          </SettingsError>
        )}

        {isDemo ? (
          <p className="settings-help provider-demo-help">
            The demo model is built into Errand: it needs no network and no key, and answers with canned replies so
            you can see how tasks work. It cannot do real work — choose a provider above to connect a real model.
          </p>
        ) : (
          <div className="provider-fields">
            <div className="settings-field">
              <label htmlFor={id('url')}>Base URL</label>
              <input
                id={id('url')}
                className="errand-input provider-input"
                type="text"
                inputMode="url"
                autoComplete="off"
                autoCapitalize="off"
                spellCheck={false}
                placeholder="http://localhost:8000/v1"
                value={form.baseUrl}
                aria-invalid={bad('baseUrl') || undefined}
                aria-describedby={[id('url-help'), bad('baseUrl') ? errorId : ''].filter(Boolean).join(' ')}
                onChange={(e) => edit((f) => ({ ...f, baseUrl: e.target.value }))}
              />
              <p id={id('url-help')} className="settings-help">
                {form.preset === CUSTOM
                  ? 'The address of any OpenAI-compatible server (vLLM, llama.cpp, LocalAI, a proxy…); it usually ends in /v1.'
                  : `The usual address of ${preset?.name ?? 'this server'}; change it if yours differs.`}
              </p>
            </div>

            <div className="settings-field">
              {ks === 'input' ? (
                <>
                  <label htmlFor={id('key')}>API key</label>
                  <div className="key-row">
                    <input
                      ref={keyInputRef}
                      id={id('key')}
                      className="errand-input provider-input"
                      type="password"
                      autoComplete="off"
                      spellCheck={false}
                      placeholder={needsKey ? 'Paste your key' : preset?.local ? 'Usually none' : 'If the server needs one'}
                      value={form.apiKey}
                      aria-invalid={bad('apiKey') || undefined}
                      aria-describedby={[id('key-note'), bad('apiKey') ? errorId : ''].filter(Boolean).join(' ')}
                      onChange={(e) => edit((f) => ({ ...f, apiKey: e.target.value }))}
                    />
                    {form.keyMode === 'replace' && hasStoredKey(form, view) && (
                      <button type="button" className="btn btn-ghost btn-small" onClick={() => setKeyMode('keep')}>
                        Keep the saved key
                      </button>
                    )}
                  </div>
                </>
              ) : (
                <>
                  <span className="settings-label" id={id('key-label')}>
                    API key
                  </span>
                  <div className="key-row key-stored" role="group" aria-labelledby={id('key-label')}>
                    {ks === 'stored' ? (
                      <>
                        <span className="key-status">
                          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
                            <rect x="3" y="7" width="10" height="7" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
                            <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" strokeWidth="1.4" />
                          </svg>
                          A key is saved
                        </span>
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => setKeyMode('replace')}>
                          Replace key
                        </button>
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => setKeyMode('remove')}>
                          Remove key
                        </button>
                      </>
                    ) : (
                      <>
                        <span className="key-status key-status-removing">The saved key will be removed when you save.</span>
                        <button type="button" className="btn btn-ghost btn-small" onClick={() => setKeyMode('keep')}>
                          Undo
                        </button>
                      </>
                    )}
                  </div>
                </>
              )}
              {view?.keyNote && (
                <p
                  id={id('key-note')}
                  className={`settings-help key-note${view.keyStorage === 'file' ? ' key-note-file' : ''}`}
                  role="note"
                >
                  {view.keyNote}
                  {' '}Keys never go into the database, a log or an export.
                </p>
              )}
            </div>

            <div className="settings-field">
              <label htmlFor={id('model')}>Model</label>
              <ModelCombobox
                id={id('model')}
                value={form.model}
                onChange={(v) => edit((f) => ({ ...f, model: v }), { keepVerdict: true })}
                models={models.key === connKey ? models.list : null}
                loading={models.key === connKey && models.loading}
                error={models.key === connKey ? models.error : null}
                onOpen={() => loadModels(form, view)}
                invalid={bad('model') || verdict?.kind === 'model_not_found' || undefined}
                describedBy={[id('model-help'), bad('model') ? errorId : ''].filter(Boolean).join(' ')}
                placeholder={preset?.model ?? 'Choose or type a model'}
              />
              <p id={id('model-help')} className="settings-help">
                The default for new conversations; each conversation can pick another in its header.
              </p>
            </div>

            {effort && (
              <div className="settings-field">
                <label htmlFor={id('effort')}>Reasoning effort</label>
                <select
                  id={id('effort')}
                  className="errand-input provider-effort"
                  value={effort.efforts[form.model.trim()] ?? ''}
                  disabled={form.model.trim() === ''}
                  aria-describedby={id('effort-help')}
                  onChange={(e) => effort.onChange(form.model.trim(), e.target.value as ReasoningEffort | '')}
                >
                  <option value="">Default</option>
                  {EFFORTS.map((e) => (
                    <option key={e} value={e}>
                      {e.charAt(0).toUpperCase() + e.slice(1)}
                    </option>
                  ))}
                </select>
                <p id={id('effort-help')} className="settings-help">
                  How hard {form.model.trim() || 'this model'} thinks, if it is a thinking model: sent as
                  reasoning_effort. Default sends none, so the server decides.
                </p>
              </div>
            )}
          </div>
        )}

        <div className="provider-actions" hidden={isDemo && !error}>
          {!isDemo && (
            <button type="button" className="btn btn-ghost" aria-disabled={testing || undefined} onClick={() => void test()}>
              {testing && <span className="btn-spinner" aria-hidden="true" />}
              Test connection
            </button>
          )}
          <div ref={feedbackRef} className="provider-feedback" aria-live="polite">
            {error && (
              <p id={errorId} className="settings-error" role="alert">
                {error.message}
              </p>
            )}
            {error?.report && <CopyDetailsButton report={error.report} />}
            {testing && !error && <p className="muted provider-testing">Testing…</p>}
          </div>
        </div>
        <div ref={verdictRef} className="verdict-slot" aria-live="polite">
          {verdict && !testing && <VerdictView verdict={verdict} report={testError} presetId={form?.preset} />}
        </div>
      </>
    );
  }

  return (
    <div className="provider-form">
      <fieldset className="settings-group provider-group">
        <legend id={id('legend')}>Model provider</legend>
        {envNote}
        {form && presets && (
          <p className="settings-help">
            Errand talks to any OpenAI-compatible server. Choose one, test the connection, pick a model and save below:
            new tasks use it at once.
          </p>
        )}
        {body}
      </fieldset>
    </div>
  );
});

import { trapTab } from '../../lib/focusTrap';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ConversationMode, ProviderView, Risk, Settings } from '../../api/types';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { SettingsError } from './SettingsError';
import { askConfirm } from '../../stores/confirm';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { useAppStore } from '../../stores/app';
import { useConversationsStore } from '../../stores/conversations';
import type { SettingsSection } from '../../stores/settingsView';
import { DataSection } from '../archive/DataSection';
import { McpSection } from '../mcp/McpSection';
import { AgentsSection } from '../agents/AgentsSection';
import { CheckpointStorageLine } from '../checkpoints/CheckpointStorageLine';
import { MemorySection } from '../memory/MemorySection';
import { ProviderSection, type ProviderSectionHandle } from './ProviderSection';
import { ThinkingSection } from './ThinkingSection';
import { AboutSection } from './AboutSection';
import { DEMO } from './providerForm';
import {
  checkCheckpoints,
  checkForm,
  checkPrompt,
  checkTable,
  duplicateModel,
  formFromSettings,
  isDefaultPrompt,
  MAX_PROMPT,
  MODEL_TIMEOUT_MIN,
  newPriceRow,
  settingsFromForm,
  withEffort,
  type Field,
  type PriceRow,
  type SettingsForm,
} from './settingsForm';
import './settings.css';

const RISK_TOGGLES: { risk: Risk; label: string; help: string }[] = [
  {
    risk: 'read_only',
    label: 'Read-only tools',
    help:
      'List, read and search files in the workspace; fetch web pages. They change nothing. ' +
      '(Fetching an address on this computer or your local network is asked every time.)',
  },
  {
    risk: 'writes',
    label: 'Tools that write files',
    help: "Create and edit files in the conversation's workspace folder.",
  },
  {
    risk: 'destructive',
    label: 'Destructive tools (run commands)',
    help: 'Run any shell command with your permissions, anywhere on this computer.',
  },
];

/** Which field Go's reason is about, to mark it. */
function fieldOf(message: string): Field | undefined {
  if (/system prompt|instructions/i.test(message)) return 'systemPrompt';
  if (/step limit/i.test(message)) return 'maxSteps';
  if (/time limit/i.test(message)) return 'maxMinutes';
  if (/spend limit/i.test(message)) return 'maxCostUsd';
  if (/delay/i.test(message)) return 'stepDelayMs';
  if (/first-byte timeout/i.test(message)) return 'modelFirstByteTimeoutSec';
  if (/idle timeout/i.test(message)) return 'modelIdleTimeoutSec';
  if (/checkpoint|excluded folder/i.test(message)) return 'checkpoints';
  if (/reflection/i.test(message)) return 'reflectionRounds';
  if (/price|model|context length/i.test(message)) return 'prices';
  return undefined;
}

/** Go's reasons start in lower case; a sentence on its own does not. */
function sentence(message: string): string {
  const m = message.trim();
  return m.charAt(0).toUpperCase() + m.slice(1) + (/[.!?]$/.test(m) ? '' : '.');
}

/** A message worth showing: the Wails bridge can turn Go's reason into "[object Object]". */
function readable(message: string): boolean {
  return message.trim() !== '' && !message.includes('[object Object]');
}

function NumberField({
  id,
  label,
  help,
  value,
  onChange,
  invalid,
  errorId,
  step,
  min,
  unit,
}: {
  id: string;
  label: string;
  help?: ReactNode;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
  errorId: string;
  step: string;
  min: string;
  unit?: string;
}) {
  const helpId = `${id}-help`;
  return (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      <div className="settings-input-row">
        <input
          id={id}
          className="errand-input settings-number"
          type="number"
          inputMode="decimal"
          step={step}
          min={min}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={[help ? helpId : '', invalid ? errorId : ''].filter(Boolean).join(' ') || undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {unit && <span className="settings-unit">{unit}</span>}
      </div>
      {help && (
        <p id={helpId} className="settings-help">
          {help}
        </p>
      )}
    </div>
  );
}

/**
 * The built-in instructions, shown when no custom ones are stored. Without
 * them the form still works (the field is then empty, which keeps them),
 * and error says why they are not shown.
 */
async function builtInPrompt(): Promise<{ prompt: string; error: ErrorReport | null }> {
  try {
    const p = await Promise.resolve().then(() => api.defaultSystemPrompt());
    return { prompt: typeof p === 'string' ? p : '', error: null };
  } catch (err) {
    const e = toApiError(err);
    const message = readable(e.message) ? sentence(e.message) : 'Errand did not answer.';
    return { prompt: '', error: { ...reportOf(e, new Date().toISOString()), message } };
  }
}

/** What Save says once everything changed is stored. */
function savedText(provider: ProviderView | undefined): string {
  if (!provider) return 'Saved.';
  return !provider.preset || provider.preset === DEMO
    ? 'Saved. Errand uses the offline demo model.'
    : `Saved. New tasks use ${provider.model}.`;
}

/** What a Save that stored the provider but not the rest says about the provider. */
function providerSavedText(provider: ProviderView): string {
  return !provider.preset || provider.preset === DEMO
    ? 'The model provider was saved (Errand uses the offline demo model)'
    : `The model provider was saved (new tasks use ${provider.model})`;
}

/**
 * The settings, in a modal dialog: the model provider, then the agent's
 * limits, what runs without asking, its instructions, the pace, and the
 * model table (prices, context lengths). One Save at the bottom saves
 * whatever of these changed, the provider first; Esc, × or a click outside
 * asks before discarding changes.
 */
export function SettingsDialog({ onClose, section = null }: { onClose: () => void; section?: SettingsSection | null }) {
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [defaultPrompt, setDefaultPrompt] = useState('');
  /** The built-in instructions could not be read: why, shown beside the empty field. */
  const [promptError, setPromptError] = useState<ErrorReport | null>(null);
  const [loadError, setLoadError] = useState<ErrorReport | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field?: Field; report?: ErrorReport } | null>(null);
  /** What the last Save stored, said until the next edit (or a few seconds). */
  const [saved, setSaved] = useState<string | null>(null);
  /** The provider section differs from what is stored. */
  const [providerDirty, setProviderDirty] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const errorId = useId();
  const baseId = useId();
  const formId = useId();
  const providerRef = useRef<ProviderSectionHandle>(null);

  const load = useCallback(() => {
    setLoadError(null);
    setPromptError(null);
    let live = true;
    Promise.all([Promise.resolve().then(() => api.getSettings()), builtInPrompt()])
      .then(
        ([s, { prompt, error: pe }]) => {
          if (!live) return;
          setDefaultPrompt(prompt);
          setPromptError(pe);
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
    const { prompt, error: pe } = await builtInPrompt();
    setPromptError(pe);
    if (pe) return;
    setDefaultPrompt(prompt);
    setForm((f) => (f && f.systemPrompt.trim() === '' ? { ...f, systemPrompt: prompt } : f));
  };

  useEffect(() => {
    dialogRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!saved) return;
    const t = setTimeout(() => setSaved(null), 4000);
    return () => clearTimeout(t);
  }, [saved]);

  const edit = (fn: (f: SettingsForm) => SettingsForm) => {
    setForm((f) => (f ? fn(f) : f));
    setSaved(null);
  };
  const setField = (
    field:
      | 'maxSteps'
      | 'maxMinutes'
      | 'maxCostUsd'
      | 'stepDelayMs'
      | 'modelFirstByteTimeoutSec'
      | 'modelIdleTimeoutSec'
      | 'reflectionRounds'
      | 'checkpointLimitMb'
      | 'checkpointExclude',
  ) => (v: string) =>
    edit((f) => ({ ...f, [field]: v }));
  const setRow = (key: number, patch: Partial<PriceRow>) =>
    edit((f) => ({ ...f, prices: f.prices.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));

  // The settings keep sending back what was loaded, so they must carry
  // the provider just saved.
  const onProviderSaved = useCallback((v: ProviderView) => {
    setLoaded((l) => (l ? { ...l, provider: { preset: v.preset, baseUrl: v.baseUrl, model: v.model } } : l));
  }, []);

  // The memory switch saves at once; the settings keep sending back what
  // was loaded, so they must carry what it stored.
  const conversationId = useConversationsStore((s) => s.selectedId);
  const toggleMemory = async (on: boolean) => {
    if (!loaded) return;
    const stored = await api.saveSettings({ ...loaded, memoryEnabled: on });
    setLoaded((l) => (l ? { ...l, memoryEnabled: stored.memoryEnabled } : l));
  };
  const toggleNotifications = async (on: boolean) => {
    if (!loaded) return;
    const stored = await api.saveSettings({ ...loaded, notifications: on });
    setLoaded((l) => (l ? { ...l, notifications: stored.notifications } : l));
  };

  const toggleThinking = async (on: boolean) => {
    if (!loaded) return;
    const stored = await api.saveSettings({ ...loaded, showThinking: on });
    setLoaded((l) => (l ? { ...l, showThinking: stored.showThinking } : l));
    useAppStore.getState().setShowThinking(stored.showThinking !== false);
  };

  const saveMcpTimeout = async (sec: number) => {
    if (!loaded) return;
    const stored = await api.saveSettings({ ...loaded, mcpCallTimeoutSec: sec });
    setLoaded((l) => (l ? { ...l, mcpCallTimeoutSec: stored.mcpCallTimeoutSec } : l));
  };

  // (The price rows' keys are React's, not settings.)
  const asSaved = (f: SettingsForm) => JSON.stringify(f, (k, v: unknown) => (k === 'key' ? undefined : v));
  const settingsDirty =
    !!form && !!loaded && asSaved(form) !== asSaved(formFromSettings(loaded, defaultPrompt));
  const dirty = settingsDirty || providerDirty;

  /** What the form can tell is wrong with the settings before asking Go. */
  const checkSettings = (f: SettingsForm): { message: string; field?: Field } | null => {
    const dup = duplicateModel(f);
    if (dup) return { message: `The model ${dup} is listed twice in the model table.`, field: 'prices' };
    return checkTable(f) ?? checkPrompt(f) ?? checkCheckpoints(f);
  };

  /** Why the settings were not saved, from Go's reason or (when the bridge lost it) the form. */
  const settingsError = (err: unknown, f: SettingsForm) => {
    const ae = toApiError(err);
    const report = reportOf(ae, new Date().toISOString());
    if (readable(ae.message)) return { message: sentence(ae.message), field: fieldOf(ae.message), report };
    return { ...(checkForm(f) ?? { message: 'Errand could not save the settings.' }), report };
  };

  // Saves what changed: nothing until both parts pass the form's checks,
  // then the provider, then the rest; a failure says what was and was not
  // saved, at the part that failed.
  const onSave = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving || !dirty) return;
    const provider = providerRef.current;
    const providerOk = !providerDirty || !provider || provider.check();
    const local = settingsDirty && form ? checkSettings(form) : null;
    if (local || !providerOk) {
      setSaved(null);
      setError(local ?? { message: 'The model provider could not be saved (see above), so nothing was saved.' });
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(null);
    try {
      let storedProvider: ProviderView | undefined;
      if (providerDirty && provider) {
        const p = await provider.saveIfChanged();
        if (!p.ok) {
          setError({ message: 'The model provider could not be saved (see above), so nothing was saved.' });
          return;
        }
        storedProvider = p.view;
      }
      if (settingsDirty && form && loaded) {
        const base = storedProvider
          ? { ...loaded, provider: { preset: storedProvider.preset, baseUrl: storedProvider.baseUrl, model: storedProvider.model } }
          : loaded;
        try {
          const stored = await api.saveSettings(settingsFromForm(form, base, defaultPrompt));
          setLoaded(stored);
          setForm(formFromSettings(stored, defaultPrompt));
          useAppStore.getState().setShowThinking(stored.showThinking !== false);
        } catch (err) {
          const why = settingsError(err, form);
          setError(
            storedProvider
              ? { ...why, message: `${providerSavedText(storedProvider)}, but the other settings were not: ${why.message}` }
              : why,
          );
          return;
        }
      }
      setSaved(savedText(storedProvider));
    } finally {
      setSaving(false);
    }
  };

  // Esc closes and Tab stays inside, wherever the focus is (a control that
  // was removed leaves it on the body). On the document, so that nothing
  // under the dialog (such as Esc stopping a task) hears these keys.
  // Closing with changes not saved asks first (Esc, ×, a click outside).
  const requestClose = async () => {
    if (
      (settingsDirty || !!providerRef.current?.changed()) &&
      !(await askConfirm({
        title: 'Discard your changes?',
        text: 'Some settings you changed are not saved.',
        confirmLabel: 'Discard',
        cancelLabel: 'Keep editing',
      }))
    ) {
      return;
    }
    onClose();
  };
  const onCloseRef = useRef(requestClose);
  onCloseRef.current = requestClose;
  useEffect(() => {
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (e.defaultPrevented) return;
        // An open suggestion list closes first (the combobox handles it).
        const active = document.activeElement;
        if (active?.getAttribute('role') === 'combobox' && active.getAttribute('aria-expanded') === 'true') return;
        // So does an inline form that handles Esc itself (a fact being edited).
        if (active?.closest('[data-own-escape]')) return;
        e.preventDefault();
        e.stopPropagation();
        void onCloseRef.current();
        return;
      }
      trapTab(e, dialogRef.current);
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);

  const id = (name: string) => `${baseId}-${name}`;
  const bad = (f: Field) => error?.field === f;
  const destructiveOn = !!form?.autoApprove.destructive;
  const promptIsDefault = !!form && isDefaultPrompt(form.systemPrompt, defaultPrompt);

  return createPortal(
    <div
      className="settings-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) void requestClose();
      }}
    >
      <div
        ref={dialogRef}
        className="settings-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className="settings-head">
          <h2 id={titleId} className="settings-title">
            Settings
          </h2>
          <button type="button" className="icon-btn settings-close" aria-label="Close" title="Close (Esc)" onClick={() => void requestClose()}>
            ×
          </button>
        </header>

        <div className="settings-scroll">
          <ProviderSection
            ref={providerRef}
            onSaved={onProviderSaved}
            onChanged={setProviderDirty}
            autoFocus={section === 'provider'}
            effort={
              form
                ? {
                    efforts: form.reasoningEffort,
                    onChange: (model, e) => edit((f) => ({ ...f, reasoningEffort: withEffort(f.reasoningEffort, model, e) })),
                  }
                : undefined
            }
          />

          {!form ? (
            loadError ? (
              <SettingsError report={loadError} onRetry={() => load()} urgent className="settings-load-error">
                Could not load the settings: {loadError.message}
              </SettingsError>
            ) : (
              <p className="muted">Loading…</p>
            )
          ) : (
            <form id={formId} className="settings-form" noValidate onSubmit={(e) => void onSave(e)}>
              <fieldset className="settings-group">
                <legend>Limits for each task</legend>
                <p className="settings-help">
                  When a task reaches one, it pauses and asks whether to go on. New limits apply to tasks started
                  after you save.
                </p>
                <div className="settings-grid">
                  <NumberField
                    id={id('steps')}
                    label="Step limit"
                    value={form.maxSteps}
                    onChange={setField('maxSteps')}
                    invalid={bad('maxSteps')}
                    errorId={errorId}
                    step="1"
                    min="1"
                    unit="steps"
                  />
                  <NumberField
                    id={id('minutes')}
                    label="Time limit"
                    value={form.maxMinutes}
                    onChange={setField('maxMinutes')}
                    invalid={bad('maxMinutes')}
                    errorId={errorId}
                    step="any"
                    min="0"
                    unit="minutes"
                  />
                  <NumberField
                    id={id('cost')}
                    label="Spend limit"
                    value={form.maxCostUsd}
                    onChange={setField('maxCostUsd')}
                    invalid={bad('maxCostUsd')}
                    errorId={errorId}
                    step="any"
                    min="0"
                    unit="US$"
                  />
                </div>
                <p className="settings-help" id={id('cost-note')}>
                  The spend limit counts only models with a price in the table below: Ollama, LM Studio and other
                  servers without one cost nothing as far as Errand knows, so it never pauses them.
                </p>
              </fieldset>

              <fieldset className="settings-group">
                <legend>Run without asking</legend>
                <p className="settings-help">Tools of the kinds you tick run at once; the others wait for your approval.</p>
                <ul className="settings-toggles">
                  {RISK_TOGGLES.map(({ risk, label, help }) => (
                    <li key={risk} className={`settings-toggle risk-row-${risk}`}>
                      <input
                        id={id(`auto-${risk}`)}
                        type="checkbox"
                        checked={form.autoApprove[risk]}
                        aria-describedby={id(`auto-${risk}-help`)}
                        onChange={(e) =>
                          edit((f) => ({ ...f, autoApprove: { ...f.autoApprove, [risk]: e.target.checked } }))
                        }
                      />
                      <div>
                        <label htmlFor={id(`auto-${risk}`)}>{label}</label>
                        <p id={id(`auto-${risk}-help`)} className="settings-help">
                          {help}
                        </p>
                      </div>
                    </li>
                  ))}
                </ul>
                {destructiveOn && (
                  <p className="settings-warning" role="note">
                    <strong>Careful:</strong> the agent will run any command it decides on — deleting files,
                    installing software, sending data — without asking you first. Turn this on only for work you
                    would let it do unwatched.
                  </p>
                )}
              </fieldset>

              <fieldset className="settings-group">
                <legend>Agent instructions</legend>
                <div className="prompt-head">
                  <label htmlFor={id('prompt')}>System prompt</label>
                  <span id={id('prompt-kind')} className={`prompt-badge${promptIsDefault ? '' : ' is-custom'}`}>
                    {promptIsDefault ? 'Built-in' : 'Custom'}
                  </span>
                  <button
                    type="button"
                    className="btn btn-ghost btn-small prompt-reset"
                    disabled={promptIsDefault && form.systemPrompt === defaultPrompt}
                    onClick={() => edit((f) => ({ ...f, systemPrompt: defaultPrompt }))}
                  >
                    Reset to default
                  </button>
                </div>
                <textarea
                  id={id('prompt')}
                  className="errand-input prompt-input"
                  rows={9}
                  spellCheck={false}
                  value={form.systemPrompt}
                  placeholder={defaultPrompt || "Errand's built-in instructions"}
                  aria-invalid={bad('systemPrompt') || undefined}
                  aria-describedby={[id('prompt-kind'), id('prompt-help'), bad('systemPrompt') ? errorId : '']
                    .filter(Boolean)
                    .join(' ')}
                  onChange={(e) => edit((f) => ({ ...f, systemPrompt: e.target.value }))}
                />
                {promptError && (
                  <SettingsError report={promptError} onRetry={() => void reloadPrompt()} className="settings-prompt-error">
                    Could not show Errand’s built-in instructions: {promptError.message} An empty field still means
                    them.
                  </SettingsError>
                )}
                <p id={id('prompt-help')} className="settings-help">
                  What the agent is told before every task. {promptIsDefault
                    ? 'These are Errand’s built-in instructions; edit them to change how the agent works.'
                    : 'Yours replace Errand’s built-in instructions; Reset to default brings those back.'}{' '}
                  Applies to tasks started after you save. At most {MAX_PROMPT.toLocaleString('en-US')} characters.
                </p>
              </fieldset>

              <fieldset className="settings-group">
                <legend>Modes and reflection</legend>
                <div className="settings-field">
                  <label htmlFor={id('default-mode')}>Default mode</label>
                  <select
                    id={id('default-mode')}
                    className="errand-input"
                    value={form.defaultMode}
                    aria-describedby={id('default-mode-help')}
                    onChange={(e) => edit((f) => ({ ...f, defaultMode: e.target.value as ConversationMode }))}
                  >
                    <option value="auto">Auto</option>
                    <option value="agent">Agent</option>
                    <option value="chat">Chat</option>
                  </select>
                  <p id={id('default-mode-help')} className="settings-help">
                    A new conversation&apos;s mode. Auto decides for each message between a direct answer and a task;
                    /task or /chat at the start of a message forces one.
                  </p>
                </div>
                <ul className="settings-toggles">
                  <li className="settings-toggle">
                    <input
                      id={id('auto-ask')}
                      type="checkbox"
                      checked={form.autoAskModel}
                      aria-describedby={id('auto-ask-help')}
                      onChange={(e) => edit((f) => ({ ...f, autoAskModel: e.target.checked }))}
                    />
                    <div>
                      <label htmlFor={id('auto-ask')}>Ask the model when Auto is unsure</label>
                      <p id={id('auto-ask-help')} className="settings-help">
                        One short extra call to the model, only when the quick local decision is a close one.
                      </p>
                    </div>
                  </li>
                </ul>
                <NumberField
                  id={id('reflection')}
                  label="Reflection rounds"
                  help="Before a task with a plan completes, Errand checks the result against the plan, at most this many times. 0 turns reflection off."
                  value={form.reflectionRounds}
                  onChange={setField('reflectionRounds')}
                  invalid={bad('reflectionRounds')}
                  errorId={errorId}
                  step="1"
                  min="0"
                />
              </fieldset>

              <fieldset className="settings-group">
                <legend>Pace</legend>
                <NumberField
                  id={id('delay')}
                  label="Delay between steps"
                  help="A pause before each model call after the first, e.g. to stay under a rate limit. 0 for none."
                  value={form.stepDelayMs}
                  onChange={setField('stepDelayMs')}
                  invalid={bad('stepDelayMs')}
                  errorId={errorId}
                  step="100"
                  min="0"
                  unit="ms"
                />
                {loaded?.modelFirstByteTimeoutSec !== undefined && (
                  <>
                    <NumberField
                      id={id('first-byte')}
                      label="Model first-byte timeout (s)"
                      help="A model call whose server sends nothing this long after the request is cut and tried once more. Be generous with local models that load on first use."
                      value={form.modelFirstByteTimeoutSec}
                      onChange={setField('modelFirstByteTimeoutSec')}
                      invalid={bad('modelFirstByteTimeoutSec')}
                      errorId={errorId}
                      step="1"
                      min={String(MODEL_TIMEOUT_MIN)}
                    />
                    <NumberField
                      id={id('idle')}
                      label="Model idle timeout (s)"
                      help="The same when the server goes silent this long in the middle of its reply."
                      value={form.modelIdleTimeoutSec}
                      onChange={setField('modelIdleTimeoutSec')}
                      invalid={bad('modelIdleTimeoutSec')}
                      errorId={errorId}
                      step="1"
                      min={String(MODEL_TIMEOUT_MIN)}
                    />
                  </>
                )}
              </fieldset>

              {form.checkpointLimitMb !== '' && (
                <fieldset className="settings-group" aria-describedby={bad('checkpoints') ? errorId : undefined}>
                  <legend>Checkpoints (Undo changes)</legend>
                  <p className="settings-help">
                    Before a task changes a file, Errand keeps what was there, so the task’s “Undo changes” can put it
                    back. The oldest checkpoints are removed past the limit.
                  </p>
                  <CheckpointStorageLine key={loaded?.checkpointLimitMb} />
                  <NumberField
                    id={id('checkpoint-limit')}
                    label="Storage limit"
                    value={form.checkpointLimitMb}
                    onChange={setField('checkpointLimitMb')}
                    invalid={bad('checkpoints')}
                    errorId={errorId}
                    step="1"
                    min="10"
                    unit="MB"
                  />
                  <div className="settings-field">
                    <label htmlFor={id('checkpoint-exclude')}>Folders not kept</label>
                    <input
                      id={id('checkpoint-exclude')}
                      className="errand-input"
                      value={form.checkpointExclude}
                      aria-invalid={bad('checkpoints') || undefined}
                      aria-describedby={`${id('checkpoint-exclude')}-help`}
                      onChange={(e) => setField('checkpointExclude')(e.target.value)}
                    />
                    <p id={`${id('checkpoint-exclude')}-help`} className="settings-help">
                      Folder names, separated by commas, skipped wherever they are when the workspace is kept before a
                      command runs (what a command changes in them cannot be undone).
                    </p>
                  </div>
                </fieldset>
              )}

              <fieldset className="settings-group" aria-describedby={bad('prices') ? errorId : undefined}>
                <legend>Prices and context lengths</legend>
                <p className="settings-help">
                  Per model name: US dollars per million tokens, to count what tasks spend (a model without a price
                  counts as free) and how many tokens the model reads at once (blank if you do not know).
                </p>
                <table className="price-table">
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Input $ / 1M</th>
                      <th scope="col">Output $ / 1M</th>
                      <th scope="col">Context (tokens)</th>
                      <th scope="col">
                        <span className="sr-only">Remove</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {form.prices.map((row, i) => {
                      const name = row.model.trim() || `row ${i + 1}`;
                      return (
                        <tr key={row.key}>
                          <td>
                            <input
                              className="errand-input"
                              type="text"
                              aria-label={`Model name, row ${i + 1}`}
                              value={row.model}
                              placeholder="model name"
                              spellCheck={false}
                              onChange={(e) => setRow(row.key, { model: e.target.value })}
                            />
                          </td>
                          <td>
                            <input
                              className="errand-input settings-number"
                              type="number"
                              inputMode="decimal"
                              step="any"
                              min="0"
                              aria-label={`Input price of ${name}, $ per 1M tokens`}
                              value={row.input}
                              onChange={(e) => setRow(row.key, { input: e.target.value })}
                            />
                          </td>
                          <td>
                            <input
                              className="errand-input settings-number"
                              type="number"
                              inputMode="decimal"
                              step="any"
                              min="0"
                              aria-label={`Output price of ${name}, $ per 1M tokens`}
                              value={row.output}
                              onChange={(e) => setRow(row.key, { output: e.target.value })}
                            />
                          </td>
                          <td>
                            <input
                              className="errand-input settings-number"
                              type="number"
                              inputMode="numeric"
                              step="1"
                              min="1"
                              placeholder="—"
                              aria-label={`Context length of ${name}, tokens`}
                              value={row.context}
                              onChange={(e) => setRow(row.key, { context: e.target.value })}
                            />
                          </td>
                          <td>
                            <button
                              type="button"
                              className="icon-btn"
                              aria-label={`Remove ${name}`}
                              title="Remove"
                              onClick={() => edit((f) => ({ ...f, prices: f.prices.filter((r) => r.key !== row.key) }))}
                            >
                              ×
                            </button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => edit((f) => ({ ...f, prices: [...f.prices, newPriceRow('', '0', '0', '')] }))}
                >
                  + Add model
                </button>
              </fieldset>
            </form>
          )}
          {loaded && <ThinkingSection shown={loaded.showThinking !== false} onToggle={toggleThinking} />}
          {loaded && (
            <MemorySection
              enabled={loaded.memoryEnabled !== false}
              onToggle={toggleMemory}
              conversationId={conversationId}
            />
          )}
          <AgentsSection />
          {loaded && <McpSection timeoutSec={loaded.mcpCallTimeoutSec ?? 120} onTimeout={saveMcpTimeout} />}
          {loaded && <DataSection notifications={loaded.notifications !== false} onToggle={toggleNotifications} />}
          <AboutSection />
        </div>

        <footer className="settings-foot">
          <div className="settings-feedback">
            {error && (
              <p id={errorId} className="settings-error" role="alert">
                {error.message}
              </p>
            )}
            {error?.report && <CopyDetailsButton report={error.report} />}
            <p className="settings-saved" role="status">
              {saved ?? ''}
            </p>
            {!dirty && !saved && !error && (
              <p id={id('clean')} className="settings-clean">
                No changes to save.
              </p>
            )}
          </div>
          <button
            // Enter in a settings field saves too (the button submits their form, when it is there).
            type={form ? 'submit' : 'button'}
            form={form ? formId : undefined}
            className="btn btn-primary"
            aria-disabled={saving || !dirty || undefined}
            aria-describedby={!dirty && !saved && !error ? id('clean') : undefined}
            onClick={form ? undefined : () => void onSave()}
          >
            {saving && <span className="btn-spinner" aria-hidden="true" />}
            Save
          </button>
        </footer>
      </div>
    </div>,
    document.body,
  );
}

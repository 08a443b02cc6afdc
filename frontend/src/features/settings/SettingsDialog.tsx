import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { Risk, Settings } from '../../api/types';
import { ProviderSection } from './ProviderSection';
import {
  checkForm,
  duplicateModel,
  formFromSettings,
  newPriceRow,
  settingsFromForm,
  type Field,
  type PriceRow,
  type SettingsForm,
} from './settingsForm';
import './settings.css';

const RISK_TOGGLES: { risk: Risk; label: string; help: string }[] = [
  {
    risk: 'read_only',
    label: 'Read-only tools',
    help: 'List, read and search files in the workspace; fetch web pages. They change nothing.',
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
  if (/step limit/i.test(message)) return 'maxSteps';
  if (/time limit/i.test(message)) return 'maxMinutes';
  if (/spend limit/i.test(message)) return 'maxCostUsd';
  if (/delay/i.test(message)) return 'stepDelayMs';
  if (/price|model/i.test(message)) return 'prices';
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

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

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
 * The settings, in a modal dialog: limits, what runs without asking, the
 * pace, and the price table. Esc or × closes it without saving.
 */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field?: Field } | null>(null);
  const [saved, setSaved] = useState(false);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const errorId = useId();
  const baseId = useId();

  const load = useCallback(() => {
    setLoadError(null);
    let live = true;
    Promise.resolve()
      .then(() => api.getSettings())
      .then(
        (s) => {
          if (!live) return;
          setLoaded(s);
          setForm(formFromSettings(s));
        },
        (err) => {
          if (!live) return;
          const e = toApiError(err);
          setLoadError(readable(e.message) ? e.message : 'Errand could not read the settings.');
        },
      );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => load(), [load]);

  useEffect(() => {
    dialogRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!saved) return;
    const t = setTimeout(() => setSaved(false), 4000);
    return () => clearTimeout(t);
  }, [saved]);

  const edit = (fn: (f: SettingsForm) => SettingsForm) => {
    setForm((f) => (f ? fn(f) : f));
    setSaved(false);
  };
  const setField = (field: 'maxSteps' | 'maxMinutes' | 'maxCostUsd' | 'stepDelayMs') => (v: string) =>
    edit((f) => ({ ...f, [field]: v }));
  const setRow = (key: number, patch: Partial<PriceRow>) =>
    edit((f) => ({ ...f, prices: f.prices.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));

  const onSave = async (e: FormEvent) => {
    e.preventDefault();
    if (!form || !loaded || saving) return;
    const dup = duplicateModel(form);
    if (dup) {
      setError({ message: `The model ${dup} is listed twice in the price table.`, field: 'prices' });
      return;
    }
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const stored = await api.saveSettings(settingsFromForm(form, loaded));
      setLoaded(stored);
      setForm(formFromSettings(stored));
      setSaved(true);
    } catch (err) {
      const ae = toApiError(err);
      if (readable(ae.message)) {
        setError({ message: sentence(ae.message), field: fieldOf(ae.message) });
      } else {
        const local = checkForm(form);
        setError(local ?? { message: 'Errand could not save the settings.' });
      }
    } finally {
      setSaving(false);
    }
  };

  // Esc closes and Tab stays inside, wherever the focus is (a control that
  // was removed leaves it on the body). On the document, so that nothing
  // under the dialog (such as Esc stopping a task) hears these keys.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const onKeyDown = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape') {
        if (e.defaultPrevented) return;
        e.preventDefault();
        e.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const root = dialogRef.current;
      if (!root) return;
      const items = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      const inside = active instanceof Node && root.contains(active);
      if (!inside || (e.shiftKey && (active === first || active === root))) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      } else if (!e.shiftKey && active === last) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);

  const id = (name: string) => `${baseId}-${name}`;
  const bad = (f: Field) => error?.field === f;
  const destructiveOn = !!form?.autoApprove.destructive;

  return createPortal(
    <div
      className="settings-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
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
          <button type="button" className="icon-btn settings-close" aria-label="Close" title="Close (Esc)" onClick={onClose}>
            ×
          </button>
        </header>

        {!form ? (
          <div className="settings-scroll">
            {loadError ? (
              <div className="settings-error" role="alert">
                <p>Could not load the settings: {loadError}</p>
                <button type="button" className="btn btn-ghost btn-small" onClick={() => load()}>
                  Try again
                </button>
              </div>
            ) : (
              <p className="muted">Loading…</p>
            )}
          </div>
        ) : (
          <form className="settings-form" noValidate onSubmit={(e) => void onSave(e)}>
            <div className="settings-scroll">
              <ProviderSection />

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
              </fieldset>

              <fieldset className="settings-group" aria-describedby={bad('prices') ? errorId : undefined}>
                <legend>Prices</legend>
                <p className="settings-help">
                  US dollars per million tokens, by model name, to count what tasks spend. A model that is not listed
                  counts as free.
                </p>
                <table className="price-table">
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Input $ / 1M</th>
                      <th scope="col">Output $ / 1M</th>
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
                  onClick={() => edit((f) => ({ ...f, prices: [...f.prices, newPriceRow('', '0', '0')] }))}
                >
                  + Add model
                </button>
              </fieldset>
            </div>

            <footer className="settings-foot">
              <div className="settings-feedback">
                {error && (
                  <p id={errorId} className="settings-error" role="alert">
                    {error.message}
                  </p>
                )}
                <p className="settings-saved" role="status">
                  {saved ? 'Saved.' : ''}
                </p>
              </div>
              <button type="submit" className="btn btn-primary" aria-disabled={saving || undefined}>
                Save
              </button>
            </footer>
          </form>
        )}
      </div>
    </div>,
    document.body,
  );
}

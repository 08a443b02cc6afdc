import { forwardRef, useEffect, useId, useImperativeHandle, useRef, type ForwardedRef, type ReactNode } from 'react';
import type { ProviderView } from '../../api';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { useAppStore } from '../../stores/app';
import { PresetChoice } from './PresetChoice';
import { ProviderFields, type EffortControl } from './ProviderFields';
import { DEMO, providerChanged } from './providerForm';
import { SettingsError } from './SettingsError';
import { useProviderForm, type ProviderFormState } from './useProviderForm';
import { VerdictView } from './VerdictView';

export type { EffortControl } from './ProviderFields';

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

/** Scrolls el into view when what it shows changes (a verdict, an error below the fold). */
function useShowWhen(value: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (value && el && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [value]);
  return ref;
}

/** The handle the dialog's Save uses; it always sees the latest form. */
function useHandle(ref: ForwardedRef<ProviderSectionHandle>, p: ProviderFormState) {
  const latest = useRef(p);
  latest.current = p;
  useImperativeHandle(
    ref,
    () => ({
      check: () => !latest.current.changed || latest.current.check(),
      saveIfChanged: async () => (latest.current.changed ? latest.current.save() : { ok: true }),
      changed: () => !!latest.current.form && providerChanged(latest.current.form, latest.current.view),
    }),
    [],
  );
}

function EnvNote({ view }: { view: ProviderView | null }) {
  const modelInfo = useAppStore((s) => s.modelInfo);
  if (!view?.envOverride) return null;
  return (
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
  );
}

/**
 * The model provider: which server (presets, with the local ones that are
 * running marked), its address, its API key (stored in the keyring or the
 * 0600 file: the form only knows whether there is one), the default model,
 * its reasoning effort and a connection test with a clear verdict. The
 * dialog's Save saves it (through the handle), and hears through onChanged
 * whether it differs from what is stored.
 */
export const ProviderSection = forwardRef<
  ProviderSectionHandle,
  { onSaved?: (view: ProviderView) => void; onChanged?: (changed: boolean) => void; autoFocus?: boolean; effort?: EffortControl }
>(function ProviderSection({ onSaved, onChanged, autoFocus = false, effort }, ref) {
  const p = useProviderForm(onSaved);
  const { form, presets } = p;
  const errorId = useId();
  const groupRef = useRef<HTMLDivElement>(null);
  const verdictRef = useShowWhen(p.verdict);
  const feedbackRef = useShowWhen(p.error);
  useHandle(ref, p);

  // Opened from "Connect a model": the provider choice has the focus.
  const didFocus = useRef(false);
  useEffect(() => {
    if (!autoFocus || didFocus.current || !form || !presets) return;
    didFocus.current = true;
    groupRef.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
    if (typeof groupRef.current?.scrollIntoView === 'function') groupRef.current.scrollIntoView({ block: 'nearest' });
  }, [autoFocus, form, presets]);

  // The dialog enables its Save, and asks before discarding, by this.
  useEffect(() => {
    onChanged?.(p.changed);
  }, [p.changed, onChanged]);

  let body: ReactNode;
  if (!form || !presets) {
    body = p.loadError ? (
      <SettingsError
        report={p.loadError}
        urgent
        onRetry={() => {
          p.load();
          p.detect();
        }}
      >
        Could not load the provider: {p.loadError.message}
      </SettingsError>
    ) : (
      <p className="muted">Loading…</p>
    );
  } else {
    const isDemo = form.preset === DEMO;
    body = (
      <>
        <PresetChoice ref={groupRef} presets={presets} chosen={form.preset} detected={p.detected} onChoose={p.choosePreset} />
        {/* Said once, beside the choices, which all still work. */}
        {p.detectError && (
          <SettingsError report={p.detectError} onRetry={p.detect} retryLabel="Check again" className="provider-detect-error">
            Could not check which model servers are running on this computer: {p.detectError.message} Ollama and LM
            Studio can still be chosen and tested.
          </SettingsError>
        )}
        {isDemo ? (
          <p className="settings-help provider-demo-help">
            The demo model is built into Errand: it needs no network and no key, and answers with canned replies so
            you can see how tasks work. It cannot do real work — choose a provider above to connect a real model.
          </p>
        ) : (
          <ProviderFields p={{ ...p, form }} errorId={errorId} effort={effort} />
        )}
        <div className="provider-actions" hidden={isDemo && !p.error}>
          {!isDemo && (
            <button type="button" className="btn btn-ghost" aria-disabled={p.testing || undefined} onClick={() => void p.test()}>
              {p.testing && <span className="btn-spinner" aria-hidden="true" />}
              Test connection
            </button>
          )}
          <div ref={feedbackRef} className="provider-feedback" aria-live="polite">
            {p.error && (
              <p id={errorId} className="settings-error" role="alert">
                {p.error.message}
              </p>
            )}
            {p.error?.report && <CopyDetailsButton report={p.error.report} />}
            {p.testing && !p.error && <p className="muted provider-testing">Testing…</p>}
          </div>
        </div>
        <div ref={verdictRef} className="verdict-slot" aria-live="polite">
          {p.verdict && !p.testing && <VerdictView verdict={p.verdict} report={p.testError} presetId={form.preset} />}
        </div>
      </>
    );
  }

  return (
    <div className="provider-form">
      <fieldset className="settings-group provider-group">
        <legend>Model provider</legend>
        <EnvNote view={p.view} />
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

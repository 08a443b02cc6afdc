import { useId } from 'react';
import type { ReasoningEffort } from '../../api';
import { ApiKeyField } from './ApiKeyField';
import { ModelCombobox } from './ModelCombobox';
import { CUSTOM, type ProviderField, type ProviderForm } from './providerForm';
import { EFFORTS } from './settingsForm';
import type { ProviderFormState } from './useProviderForm';

/** How hard the model chosen is asked to think: a setting kept by model name, edited beside it. */
export interface EffortControl {
  efforts: Record<string, ReasoningEffort>;
  onChange: (model: string, effort: ReasoningEffort | '') => void;
}

function EffortField({ model, effort }: { model: string; effort: EffortControl }) {
  const id = useId();
  return (
    <div className="settings-field">
      <label htmlFor={id}>Reasoning effort</label>
      <select
        id={id}
        className="errand-input provider-effort"
        value={effort.efforts[model] ?? ''}
        disabled={model === ''}
        aria-describedby={`${id}-help`}
        onChange={(e) => effort.onChange(model, e.target.value as ReasoningEffort | '')}
      >
        <option value="">Default</option>
        {EFFORTS.map((e) => (
          <option key={e} value={e}>
            {e.charAt(0).toUpperCase() + e.slice(1)}
          </option>
        ))}
      </select>
      <p id={`${id}-help`} className="settings-help">
        How hard {model || 'this model'} thinks, if it is a thinking model: sent as reasoning_effort. Default sends
        none, so the server decides.
      </p>
    </div>
  );
}

/**
 * A real server's fields: its address, its API key, the default model (from
 * the server's list, or typed) and its reasoning effort (when the dialog
 * passes the efforts). The field the error is about points to errorId.
 */
export function ProviderFields({
  p,
  errorId,
  effort,
}: {
  p: ProviderFormState & { form: ProviderForm };
  errorId: string;
  effort?: EffortControl;
}) {
  const id = useId();
  const { form, view, preset, models, connKey } = p;
  const bad = (f: ProviderField) => p.error?.field === f;
  const describe = (own: string, f: ProviderField) => [own, bad(f) ? errorId : ''].filter(Boolean).join(' ');
  const forKey = <T,>(v: T, none: T) => (models.key === connKey ? v : none);
  return (
    <div className="provider-fields">
      <div className="settings-field">
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input
          id={`${id}-url`}
          className="errand-input provider-input"
          type="text"
          inputMode="url"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="http://localhost:8000/v1"
          value={form.baseUrl}
          aria-invalid={bad('baseUrl') || undefined}
          aria-describedby={describe(`${id}-url-help`, 'baseUrl')}
          onChange={(e) => p.edit((f) => ({ ...f, baseUrl: e.target.value }))}
        />
        <p id={`${id}-url-help`} className="settings-help">
          {form.preset === CUSTOM
            ? 'The address of any OpenAI-compatible server (vLLM, llama.cpp, LocalAI, a proxy…); it usually ends in /v1.'
            : `The usual address of ${preset?.name ?? 'this server'}; change it if yours differs.`}
        </p>
      </div>

      <ApiKeyField
        form={form}
        view={view}
        preset={preset}
        invalid={bad('apiKey')}
        describedBy={describe(`${id}-key-note`, 'apiKey')}
        noteId={`${id}-key-note`}
        onKey={(key) => p.edit((f) => ({ ...f, apiKey: key }))}
        onMode={p.setKeyMode}
      />

      <div className="settings-field">
        <label htmlFor={`${id}-model`}>Model</label>
        <ModelCombobox
          id={`${id}-model`}
          value={form.model}
          onChange={(v) => p.edit((f) => ({ ...f, model: v }), { keepVerdict: true })}
          models={forKey(models.list, null)}
          loading={forKey(models.loading, false)}
          error={forKey(models.error, null)}
          onOpen={() => p.loadModels(form, view)}
          invalid={bad('model') || p.verdict?.kind === 'model_not_found' || undefined}
          describedBy={describe(`${id}-model-help`, 'model')}
          placeholder={preset?.model ?? 'Choose or type a model'}
        />
        <p id={`${id}-model-help`} className="settings-help">
          The default for new conversations; each conversation can pick another in its header.
        </p>
      </div>

      {effort && <EffortField model={form.model.trim()} effort={effort} />}
    </div>
  );
}

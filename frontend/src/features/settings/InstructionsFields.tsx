import { useId } from 'react';
import type { ErrorReport } from '../../lib/errorDetails';
import { SettingsError } from './SettingsError';
import { MAX_PROMPT } from './settingsChecks';
import { isDefaultPrompt } from './settingsForm';
import type { FieldGroupProps } from './useSettingsForm';

/**
 * The agent's instructions: the built-in ones unless custom ones are
 * stored, with Reset to default; promptError says why the built-in ones
 * could not be shown (retry asks again).
 */
export function InstructionsFields({
  form,
  edit,
  bad,
  errorId,
  defaultPrompt,
  promptError,
  retry,
}: FieldGroupProps & { defaultPrompt: string; promptError: ErrorReport | null; retry: () => void }) {
  const id = useId();
  const isDefault = isDefaultPrompt(form.systemPrompt, defaultPrompt);
  const invalid = bad('systemPrompt');
  return (
    <fieldset className="settings-group">
      <legend>Agent instructions</legend>
      <div className="prompt-head">
        <label htmlFor={`${id}-prompt`}>System prompt</label>
        <span id={`${id}-kind`} className={`prompt-badge${isDefault ? '' : ' is-custom'}`}>
          {isDefault ? 'Built-in' : 'Custom'}
        </span>
        <button
          type="button"
          className="btn btn-ghost btn-small prompt-reset"
          disabled={isDefault && form.systemPrompt === defaultPrompt}
          onClick={() => edit((f) => ({ ...f, systemPrompt: defaultPrompt }))}
        >
          Reset to default
        </button>
      </div>
      <textarea
        id={`${id}-prompt`}
        className="errand-input prompt-input"
        rows={9}
        spellCheck={false}
        value={form.systemPrompt}
        placeholder={defaultPrompt || "Errand's built-in instructions"}
        aria-invalid={invalid || undefined}
        aria-describedby={[`${id}-kind`, `${id}-help`, invalid ? errorId : ''].filter(Boolean).join(' ')}
        onChange={(e) => edit((f) => ({ ...f, systemPrompt: e.target.value }))}
      />
      {promptError && (
        <SettingsError report={promptError} onRetry={retry} className="settings-prompt-error">
          Could not show Errand’s built-in instructions: {promptError.message} An empty field still means them.
        </SettingsError>
      )}
      <p id={`${id}-help`} className="settings-help">
        What the agent is told before every task.{' '}
        {isDefault
          ? 'These are Errand’s built-in instructions; edit them to change how the agent works.'
          : 'Yours replace Errand’s built-in instructions; Reset to default brings those back.'}{' '}
        Applies to tasks started after you save. At most {MAX_PROMPT.toLocaleString('en-US')} characters.
      </p>
    </fieldset>
  );
}

import { useId } from 'react';
import { NumberField } from './NumberField';
import { setterOf, type FieldGroupProps } from './useSettingsForm';

/** The limits each task starts with: steps, minutes, spend. */
export function LimitsFields({ form, edit, bad, errorId }: FieldGroupProps) {
  const id = useId();
  return (
    <fieldset className="settings-group">
      <legend>Limits for each task</legend>
      <p className="settings-help">
        When a task reaches one, it pauses and asks whether to go on. New limits apply to tasks started after you
        save.
      </p>
      <div className="settings-grid">
        <NumberField
          id={`${id}-steps`}
          label="Step limit"
          value={form.maxSteps}
          onChange={setterOf(edit, 'maxSteps')}
          invalid={bad('maxSteps')}
          errorId={errorId}
          step="1"
          min="1"
          unit="steps"
        />
        <NumberField
          id={`${id}-minutes`}
          label="Time limit"
          value={form.maxMinutes}
          onChange={setterOf(edit, 'maxMinutes')}
          invalid={bad('maxMinutes')}
          errorId={errorId}
          step="any"
          min="0"
          unit="minutes"
        />
        <NumberField
          id={`${id}-cost`}
          label="Spend limit"
          value={form.maxCostUsd}
          onChange={setterOf(edit, 'maxCostUsd')}
          invalid={bad('maxCostUsd')}
          errorId={errorId}
          step="any"
          min="0"
          unit="US$"
        />
      </div>
      <p className="settings-help" id={`${id}-cost-note`}>
        The spend limit counts only models with a price in the table below: Ollama, LM Studio and other servers
        without one cost nothing as far as Errand knows, so it never pauses them.
      </p>
    </fieldset>
  );
}

import { useId } from 'react';
import { NumberField } from './NumberField';
import { MODEL_TIMEOUT_MIN } from './settingsChecks';
import { setterOf, type FieldGroupProps } from './useSettingsForm';

/** The delay between steps and, when Go has them, the model's timeouts. */
export function PaceFields({ form, edit, bad, errorId, timeouts }: FieldGroupProps & { timeouts: boolean }) {
  const id = useId();
  return (
    <fieldset className="settings-group">
      <legend>Pace</legend>
      <NumberField
        id={`${id}-delay`}
        label="Delay between steps"
        help="A pause before each model call after the first, e.g. to stay under a rate limit. 0 for none."
        value={form.stepDelayMs}
        onChange={setterOf(edit, 'stepDelayMs')}
        invalid={bad('stepDelayMs')}
        errorId={errorId}
        step="100"
        min="0"
        unit="ms"
      />
      {timeouts && (
        <>
          <NumberField
            id={`${id}-first-byte`}
            label="Model first-byte timeout (s)"
            help="A model call whose server sends nothing this long after the request is cut and tried once more. Be generous with local models that load on first use."
            value={form.modelFirstByteTimeoutSec}
            onChange={setterOf(edit, 'modelFirstByteTimeoutSec')}
            invalid={bad('modelFirstByteTimeoutSec')}
            errorId={errorId}
            step="1"
            min={String(MODEL_TIMEOUT_MIN)}
          />
          <NumberField
            id={`${id}-idle`}
            label="Model idle timeout (s)"
            help="The same when the server goes silent this long in the middle of its reply."
            value={form.modelIdleTimeoutSec}
            onChange={setterOf(edit, 'modelIdleTimeoutSec')}
            invalid={bad('modelIdleTimeoutSec')}
            errorId={errorId}
            step="1"
            min={String(MODEL_TIMEOUT_MIN)}
          />
        </>
      )}
    </fieldset>
  );
}

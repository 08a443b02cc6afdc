import { useId } from 'react';
import { CheckpointStorageLine } from '../checkpoints/CheckpointStorageLine';
import { NumberField } from './NumberField';
import { setterOf, type FieldGroupProps } from './useSettingsForm';

/** The checkpoints' storage limit and the folders they skip; storedLimit renews the storage line once saved. */
export function CheckpointsFields({ form, edit, bad, errorId, storedLimit }: FieldGroupProps & { storedLimit?: number }) {
  const id = useId();
  const invalid = bad('checkpoints');
  return (
    <fieldset className="settings-group" aria-describedby={invalid ? errorId : undefined}>
      <legend>Checkpoints (Undo changes)</legend>
      <p className="settings-help">
        Before a task changes a file, Errand keeps what was there, so the task’s “Undo changes” can put it back. The
        oldest checkpoints are removed past the limit.
      </p>
      <CheckpointStorageLine key={storedLimit} />
      <NumberField
        id={`${id}-limit`}
        label="Storage limit"
        value={form.checkpointLimitMb}
        onChange={setterOf(edit, 'checkpointLimitMb')}
        invalid={invalid}
        errorId={errorId}
        step="1"
        min="10"
        unit="MB"
      />
      <div className="settings-field">
        <label htmlFor={`${id}-exclude`}>Folders not kept</label>
        <input
          id={`${id}-exclude`}
          className="errand-input"
          value={form.checkpointExclude}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-exclude-help`}
          onChange={(e) => setterOf(edit, 'checkpointExclude')(e.target.value)}
        />
        <p id={`${id}-exclude-help`} className="settings-help">
          Folder names, separated by commas, skipped wherever they are when the workspace is kept before a command
          runs (what a command changes in them cannot be undone).
        </p>
      </div>
    </fieldset>
  );
}

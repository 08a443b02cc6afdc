import { useId } from 'react';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import type { FormError } from './settingsText';

/**
 * The dialog's foot: why the last Save failed (errorId, which the field it
 * is about points to), what it stored, or that there is nothing to save;
 * and Save, which submits formId when the form is there.
 */
export function SettingsFooter({
  error,
  errorId,
  saved,
  dirty,
  saving,
  formId,
  onSave,
}: {
  error: FormError | null;
  errorId: string;
  saved: string | null;
  dirty: boolean;
  saving: boolean;
  formId?: string;
  onSave: () => void;
}) {
  const cleanId = useId();
  const clean = !dirty && !saved && !error;
  return (
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
        {clean && (
          <p id={cleanId} className="settings-clean">
            No changes to save.
          </p>
        )}
      </div>
      <button
        // Enter in a settings field saves too (the button submits their form, when it is there).
        type={formId ? 'submit' : 'button'}
        form={formId}
        className="btn btn-primary"
        aria-disabled={saving || !dirty || undefined}
        aria-describedby={clean ? cleanId : undefined}
        onClick={formId ? undefined : onSave}
      >
        {saving && <span className="btn-spinner" aria-hidden="true" />}
        Save
      </button>
    </footer>
  );
}

import { useEffect, useId, useRef } from 'react';
import type { ProviderPreset, ProviderView } from '../../api';
import { hasStoredKey, keyState, type KeyMode, type ProviderForm } from './providerForm';

function LockIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <rect x="3" y="7" width="10" height="7" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" fill="none" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

/** A stored key is never shown: "A key is saved", with Replace and Remove (and Undo once removed). */
function StoredKey({ removing, onMode }: { removing: boolean; onMode: (mode: KeyMode) => void }) {
  const id = useId();
  return (
    <>
      <span className="settings-label" id={id}>
        API key
      </span>
      <div className="key-row key-stored" role="group" aria-labelledby={id}>
        {removing ? (
          <>
            <span className="key-status key-status-removing">The saved key will be removed when you save.</span>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => onMode('keep')}>
              Undo
            </button>
          </>
        ) : (
          <>
            <span className="key-status">
              <LockIcon />A key is saved
            </span>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => onMode('replace')}>
              Replace key
            </button>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => onMode('remove')}>
              Remove key
            </button>
          </>
        )}
      </div>
    </>
  );
}

/**
 * The API key: a field to paste one, or the stored key's status; and where
 * keys are kept (noteId). Replace key puts the focus in the field.
 */
export function ApiKeyField({
  form,
  view,
  preset,
  invalid,
  describedBy,
  noteId,
  onKey,
  onMode,
}: {
  form: ProviderForm;
  view: ProviderView | null;
  preset?: ProviderPreset;
  invalid: boolean;
  describedBy: string;
  noteId: string;
  onKey: (key: string) => void;
  onMode: (mode: KeyMode) => void;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const focusKey = useRef(false);
  useEffect(() => {
    if (!focusKey.current) return;
    focusKey.current = false;
    inputRef.current?.focus();
  });
  const mode = (m: KeyMode) => {
    if (m === 'replace') focusKey.current = true;
    onMode(m);
  };
  const ks = keyState(form, view);
  const placeholder = preset?.needsKey ? 'Paste your key' : preset?.local ? 'Usually none' : 'If the server needs one';
  return (
    <div className="settings-field">
      {ks === 'input' ? (
        <>
          <label htmlFor={id}>API key</label>
          <div className="key-row">
            <input
              ref={inputRef}
              id={id}
              className="errand-input provider-input"
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={placeholder}
              value={form.apiKey}
              aria-invalid={invalid || undefined}
              aria-describedby={describedBy}
              onChange={(e) => onKey(e.target.value)}
            />
            {form.keyMode === 'replace' && hasStoredKey(form, view) && (
              <button type="button" className="btn btn-ghost btn-small" onClick={() => mode('keep')}>
                Keep the saved key
              </button>
            )}
          </div>
        </>
      ) : (
        <StoredKey removing={ks === 'removing'} onMode={mode} />
      )}
      {view?.keyNote && (
        <p id={noteId} className={`settings-help key-note${view.keyStorage === 'file' ? ' key-note-file' : ''}`} role="note">
          {view.keyNote} Keys never go into the database, a log or an export.
        </p>
      )}
    </div>
  );
}

import { useId, useRef, useState } from 'react';
import { answerConfirm, useConfirmStore, type ConfirmInput, type ConfirmRequest } from '../stores/confirm';
import { Modal } from './Modal';

/** The question askConfirm puts to the person, as a modal dialog. */
export function ConfirmDialog() {
  const request = useConfirmStore((s) => s.request);
  if (!request) return null;
  return <Dialog request={request} />;
}

function Dialog({ request }: { request: ConfirmRequest }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!request.input) return answerConfirm(true);
    setBusy(true);
    const refused = await request.input.act(value);
    setBusy(false);
    if (refused) setError(refused);
    else answerConfirm(true);
  };
  // Over everything, the settings dialog included (Modal is a portal).
  return (
    <Modal
      role="alertdialog"
      labelledBy={titleId}
      describedBy={descId}
      backdropClassName="confirm-backdrop"
      initialFocus={cancelRef}
      onClose={() => answerConfirm(false)}
    >
      <h2 id={titleId} className="modal-title">
        {request.title}
      </h2>
      <p id={descId} className="modal-text">
        {request.text}
      </p>
      {request.input && <InputField input={request.input} value={value} error={error} onChange={setValue} />}
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={() => answerConfirm(false)}>
          {request.cancelLabel}
        </button>
        <button type="button" className="btn btn-danger-solid" disabled={busy} onClick={() => void confirm()}>
          {request.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

interface FieldProps {
  input: ConfirmInput;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}

function InputField({ input, value, error, onChange }: FieldProps) {
  const id = useId();
  return (
    <div className="confirm-field">
      <label htmlFor={id} className="confirm-field-label">
        {input.label}
      </label>
      <textarea
        id={id}
        className="confirm-field-input"
        rows={3}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-note`} className={error ? 'confirm-field-error' : 'confirm-field-hint'} role={error ? 'alert' : undefined}>
        {error ?? input.hint}
      </p>
    </div>
  );
}

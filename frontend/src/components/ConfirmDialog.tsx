import { useId, useRef } from 'react';
import { answerConfirm, useConfirmStore, type ConfirmRequest } from '../stores/confirm';
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
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="btn btn-ghost" onClick={() => answerConfirm(false)}>
          {request.cancelLabel}
        </button>
        <button type="button" className="btn btn-danger-solid" onClick={() => answerConfirm(true)}>
          {request.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

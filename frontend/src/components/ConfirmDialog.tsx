import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { trapTab } from '../lib/focusTrap';
import { answerConfirm, useConfirmStore, type ConfirmRequest } from '../stores/confirm';

/** The question askConfirm puts to the person, as a modal dialog. */
export function ConfirmDialog() {
  const request = useConfirmStore((s) => s.request);
  if (!request) return null;
  return <Dialog request={request} />;
}

function Dialog({ request }: { request: ConfirmRequest }) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    cancelRef.current?.focus();
  }, [request]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      answerConfirm(false);
      return;
    }
    trapTab(e, boxRef.current);
  };

  // Over everything, the settings dialog included.
  return createPortal(
    <div className="modal-backdrop confirm-backdrop" onMouseDown={() => answerConfirm(false)}>
      <div
        ref={boxRef}
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descId}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
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
      </div>
    </div>,
    document.body,
  );
}

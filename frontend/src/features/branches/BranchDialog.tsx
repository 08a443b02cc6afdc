import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { trapTab } from '../../lib/focusTrap';
import { branchIntoConversation } from '../../stores/branchActions';
import { closeBranchUI, useBranchUI } from './state';

/** "Branch into new conversation": the person chooses whether the new conversation shares the workspace folder or gets a copy. */
export function BranchDialog() {
  const target = useBranchUI((s) => s.branchFrom);
  if (!target) return null;
  return <Dialog conversationId={target.conversationId} messageId={target.messageId} />;
}

function Dialog({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const [copy, setCopy] = useState(false);
  const [pending, setPending] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    boxRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      closeBranchUI();
      return;
    }
    trapTab(e, boxRef.current);
  };
  const branch = async () => {
    setPending(true);
    const ok = await branchIntoConversation(conversationId, messageId, copy);
    setPending(false);
    if (ok) closeBranchUI();
  };
  return createPortal(
    <div className="modal-backdrop" onMouseDown={closeBranchUI}>
      <div
        ref={boxRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          Branch into new conversation
        </h2>
        <p className="modal-text">
          The conversation up to this message is copied into a new one, with the same agent, model and settings.
        </p>
        <fieldset className="branch-choice">
          <legend>Workspace folder</legend>
          <label>
            <input type="radio" name="branch-workspace" checked={!copy} onChange={() => setCopy(false)} />
            Share this conversation's folder
          </label>
          <label>
            <input type="radio" name="branch-workspace" checked={copy} onChange={() => setCopy(true)} />
            Copy the folder (the new conversation works on its own copy)
          </label>
        </fieldset>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={closeBranchUI}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" disabled={pending} onClick={() => void branch()}>
            Branch
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}

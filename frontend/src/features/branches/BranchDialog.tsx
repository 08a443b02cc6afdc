import { useId, useRef, useState } from 'react';
import { Modal } from '../../components/Modal';
import { usePending } from '../../lib/usePending';
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
  const { pending, run } = usePending();
  const shareRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const branch = () =>
    run(async () => {
      if (await branchIntoConversation(conversationId, messageId, copy)) closeBranchUI();
    });
  return (
    <Modal labelledBy={titleId} initialFocus={shareRef} onClose={closeBranchUI}>
      <h2 id={titleId} className="modal-title">
        Branch into new conversation
      </h2>
      <p className="modal-text">
        The conversation up to this message is copied into a new one, with the same agent, model and settings.
      </p>
      <fieldset className="branch-choice">
        <legend>Workspace folder</legend>
        <label>
          <input ref={shareRef} type="radio" name="branch-workspace" checked={!copy} onChange={() => setCopy(false)} />
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
    </Modal>
  );
}

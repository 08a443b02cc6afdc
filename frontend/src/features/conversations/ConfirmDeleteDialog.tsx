import { useEffect, useId, useRef, useState } from 'react';
import { isTerminal } from '../../api/types';
import { Modal } from '../../components/Modal';
import { deleteConversation } from '../../stores/actions';
import { useConversationsStore } from '../../stores/conversations';
import { useTasksStore } from '../../stores/tasks';
import { displayTitle } from '../../lib/displayTitle';
import { useDeleteRequest } from './deleteRequest';

/**
 * Asks before a conversation is deleted. If its task is still running it
 * says so: deleting stops the task first (Go's DeleteConversation does).
 */
export function ConfirmDeleteDialog() {
  const id = useDeleteRequest((s) => s.id);
  if (!id) return null;
  return <Dialog key={id} id={id} />;
}

function Dialog({ id }: { id: string }) {
  const title = useConversationsStore((s) => s.byId[id]?.title);
  const exists = useConversationsStore((s) => !!s.byId[id]);
  const running = useTasksStore((s) => {
    const tid = s.activeByConversation[id];
    const t = tid ? s.byId[tid] : undefined;
    return !!t && !isTerminal(t.status);
  });
  const [busy, setBusy] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descId = useId();

  const close = () => useDeleteRequest.getState().close();

  // Deleted meanwhile (e.g. by another window): nothing to confirm.
  useEffect(() => {
    if (!exists && !busy) close();
  });

  const confirm = async () => {
    setBusy(true);
    await deleteConversation(id);
    setBusy(false);
    close();
  };

  return (
    <Modal role="alertdialog" labelledBy={titleId} describedBy={descId} initialFocus={cancelRef} onClose={() => !busy && close()}>
      <h2 id={titleId} className="modal-title">
        Delete “{displayTitle(title)}”?
      </h2>
      <p id={descId} className="modal-text">
        {running
          ? 'Its task has not finished. Deleting stops the task first, then removes the conversation and all its messages. This cannot be undone.'
          : 'The conversation and all its messages will be removed. This cannot be undone.'}
      </p>
      <div className="modal-actions">
        <button ref={cancelRef} type="button" className="btn btn-ghost" disabled={busy} onClick={() => close()}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger-solid" disabled={busy} onClick={() => void confirm()}>
          {running ? 'Stop task and delete' : 'Delete'}
        </button>
      </div>
    </Modal>
  );
}

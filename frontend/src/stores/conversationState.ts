// What the person does to a conversation's state: end it, archive it,
// restore it. Go stores each and returns the conversation, which the list
// takes in (the conversation:updated event says the same).
import * as api from '../api';
import { toApiError } from '../api/errors';
import { isTerminal } from '../api/types';
import { askConfirm } from './confirm';
import { useConversationsStore } from './conversations';
import { reportError } from './notices';
import { useTasksStore } from './tasks';

function activeTask(conversationId: string) {
  const s = useTasksStore.getState();
  const id = s.activeByConversation[conversationId];
  return id ? s.byId[id] : undefined;
}

/**
 * Archives the conversation. One whose task is unfinished is archived only
 * after the person confirms stopping the task (Go stops it first).
 */
export async function archiveConversation(id: string): Promise<boolean> {
  const task = activeTask(id);
  const unfinished = !!task && !isTerminal(task.status);
  if (unfinished) {
    const ok = await askConfirm({
      title: 'Stop the task and archive?',
      text: 'A task is still unfinished in this conversation. Archiving stops it first.',
      confirmLabel: 'Stop and archive',
      cancelLabel: 'Keep working',
    });
    if (!ok) return false;
  }
  try {
    useConversationsStore.getState().upsert(await api.archiveConversation(id, unfinished));
    return true;
  } catch (err) {
    reportError(err, 'Could not archive the conversation');
    return false;
  }
}

/** Brings an archived conversation back to the list. */
export async function restoreConversation(id: string): Promise<boolean> {
  try {
    useConversationsStore.getState().upsert(await api.restoreConversation(id));
    return true;
  } catch (err) {
    reportError(err, 'Could not restore the conversation');
    return false;
  }
}

/**
 * Ends the conversation at the person's word (after a confirmation, where
 * they may give a reason), stopping its task. A reason Go refuses (too
 * long) is shown on its field and the dialog stays open.
 */
export async function endConversation(id: string): Promise<boolean> {
  return askConfirm({
    title: 'End this conversation?',
    text: 'The agent stops here, and the conversation is marked as ended by you. Sending a new message starts it again.',
    confirmLabel: 'End conversation',
    cancelLabel: 'Keep going',
    input: { label: 'Reason (optional)', hint: 'Shown with the conversation; at most 1 KB.', act: (reason) => end(id, reason) },
  });
}

async function end(id: string, reason: string): Promise<string | null> {
  try {
    useConversationsStore.getState().upsert(await api.endConversation(id, reason));
  } catch (err) {
    const e = toApiError(err);
    if (e.field === 'reason') return e.message;
    reportError(err, 'Could not end the conversation');
  }
  return null;
}

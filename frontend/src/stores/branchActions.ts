// The message tree: versions, regenerate, edit and resend, variations and
// branching into a new conversation. Each action calls Go through src/api,
// shows the branch Go read afterwards, reports failures as readable alerts
// and resolves to true on success (never rejects).
import * as api from '../api';
import { toApiError } from '../api';
import type { TaskMode, Variation } from '../api/types';
import { selectConversation } from './actions';
import { useConversationsStore } from './conversations';
import { reportError } from './notices';
import { applyTask, showView } from './sync';
import { useUsageStore } from './usage';

/** Shows the previous (-1) or next (1) version of a message. */
export async function showVersion(conversationId: string, messageId: string, step: -1 | 1): Promise<boolean> {
  try {
    showView(await api.showVersion(conversationId, messageId, step));
    return true;
  } catch (err) {
    reportError(err, 'Could not show that version');
    return false;
  }
}

/** Makes the branch through a message current: "Keep this one". */
export async function keepVersion(conversationId: string, messageId: string): Promise<boolean> {
  try {
    showView(await api.switchBranch(conversationId, messageId));
    return true;
  } catch (err) {
    reportError(err, 'Could not keep that version');
    return false;
  }
}

/** Runs the task that wrote a reply again (replyId '' for the last); mode '' keeps its mode. */
export async function regenerate(conversationId: string, mode: '' | 'agent' | 'chat' = '', replyId = ''): Promise<boolean> {
  try {
    applyTask(await api.regenerate(conversationId, mode, replyId), 'snapshot');
    showView(await api.loadConversation(conversationId));
    return true;
  } catch (err) {
    reportError(err, 'Could not regenerate the reply');
    return false;
  }
}

/**
 * Answers the person's message again the other way ("Run as a task instead" /
 * "Just answer instead"): a new version of the message, its first answer kept
 * on the version arrows.
 */
export async function rerunMessage(conversationId: string, messageId: string, mode: TaskMode): Promise<boolean> {
  try {
    applyTask(await api.rerunMessage(conversationId, messageId, mode), 'snapshot');
    showView(await api.loadConversation(conversationId));
    return true;
  } catch (err) {
    reportError(err, mode === 'agent' ? 'Could not run it as a task' : 'Could not answer it directly');
    return false;
  }
}

/** Sends text in place of the person's message: a new branch from there. */
export async function editMessage(conversationId: string, messageId: string, text: string): Promise<boolean> {
  try {
    applyTask(await api.editMessage(conversationId, messageId, text), 'snapshot');
    showView(await api.loadConversation(conversationId));
    return true;
  } catch (err) {
    reportError(err, 'Could not send the edited message');
    return false;
  }
}

/**
 * count more replies in place of a reply, one model per place; null when they could not be written. A failure
 * onError takes (returns true for: a field's error the form shows) is not reported again. The conversation's
 * totals are read again afterwards: the variations are paid for.
 */
export async function writeVariations(
  conversationId: string,
  messageId: string,
  count: number,
  models: string[],
  onError?: (err: unknown) => boolean,
): Promise<Variation[] | null> {
  try {
    return await api.variations(conversationId, messageId, count, models);
  } catch (err) {
    if (!onError?.(toApiError(err))) reportError(err, 'Could not write the variations');
    return null;
  } finally {
    await refreshTotals(conversationId);
  }
}

/** Stops the variations being written (what each wrote is kept). */
export async function stopVariations(conversationId: string): Promise<void> {
  try {
    await api.stopVariations(conversationId);
  } catch (err) {
    reportError(err, 'Could not stop the variations');
  }
}

/** Reads the conversation's usage and spend again (after calls made outside any task). */
async function refreshTotals(conversationId: string): Promise<void> {
  try {
    useUsageStore.getState().setBaseline(conversationId, await api.loadConversation(conversationId, 1));
  } catch {
    // The header keeps its last totals; the next load corrects them.
  }
}

/** Deletes a version of a message and everything after it (after the person confirmed). */
export async function deleteBranch(conversationId: string, messageId: string): Promise<boolean> {
  try {
    showView(await api.deleteBranch(conversationId, messageId));
    return true;
  } catch (err) {
    reportError(err, 'Could not delete the branch');
    return false;
  }
}

/** Copies the history up to a message into a new conversation, and opens it. */
export async function branchIntoConversation(conversationId: string, messageId: string, copyWorkspace: boolean): Promise<boolean> {
  try {
    const c = await api.branchIntoConversation(conversationId, messageId, copyWorkspace);
    useConversationsStore.getState().upsert(c);
    await selectConversation(c.id);
    return true;
  } catch (err) {
    reportError(err, 'Could not branch into a new conversation');
    return false;
  }
}

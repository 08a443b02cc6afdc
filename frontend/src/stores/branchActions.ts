// The message tree: versions, regenerate, edit and resend, variations and
// branching into a new conversation. Each action calls Go through src/api,
// shows the branch Go read afterwards, reports failures as readable alerts
// and resolves to true on success (never rejects).
import * as api from '../api';
import type { Message, TaskMode } from '../api/types';
import { selectConversation } from './actions';
import { useConversationsStore } from './conversations';
import { reportError } from './notices';
import { applyTask, showView } from './sync';

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

/** Runs the last task again; mode '' keeps its mode. */
export async function regenerate(conversationId: string, mode: '' | 'agent' | 'chat' = ''): Promise<boolean> {
  try {
    applyTask(await api.regenerate(conversationId, mode), 'snapshot');
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

/** Three more replies in place of a reply; null when they could not be written. */
export async function writeVariations(conversationId: string, messageId: string, models: string[]): Promise<Message[] | null> {
  try {
    return await api.variations(conversationId, messageId, models);
  } catch (err) {
    reportError(err, 'Could not write the variations');
    return null;
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

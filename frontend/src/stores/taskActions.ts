// What the person can do with an agent task that waits for them: approve or
// deny a tool call, let a paused task continue, retry a failed one, resume
// or dismiss an interrupted one; and the conversation's workspace folder.
// Like actions.ts: each resolves to true on success, never rejects, and
// reports failures as readable alerts.
import * as api from '../api';
import type { Task } from '../api/types';
import { useConversationsStore } from './conversations';
import { reportError } from './notices';
import { applyTask } from './sync';
import { useTasksStore } from './tasks';

async function attempt(fn: () => Promise<unknown>, context: string): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (err) {
    reportError(err, context);
    return false;
  }
}

export function approveTool(taskId: string, callId: string, forTask: boolean): Promise<boolean> {
  return attempt(() => api.approveTool(taskId, callId, forTask), 'Could not approve the tool call');
}

export function denyTool(taskId: string, callId: string, reason: string): Promise<boolean> {
  return attempt(() => api.denyTool(taskId, callId, reason.trim()), 'Could not deny the tool call');
}

export function continueTask(taskId: string): Promise<boolean> {
  return attempt(() => api.continueTask(taskId), 'Could not continue the task');
}

/**
 * Retries a failed task. A task that ended never comes back from an
 * update (a late one must not revive it), so the store is told first that
 * this one may.
 */
export async function retryTask(task: Task): Promise<boolean> {
  const tasks = useTasksStore.getState();
  tasks.allowRevive(task.id);
  try {
    const t = await api.retryTask(task.id);
    if (t) applyTask(t, 'snapshot');
    return true;
  } catch (err) {
    reportError(err, 'Could not retry the task');
    return false;
  } finally {
    useTasksStore.getState().forbidRevive(task.id);
  }
}

/** Resumes an interrupted task; its result is taken unless updates got further already. */
export async function resumeTask(task: Task): Promise<boolean> {
  try {
    const t = await api.resumeTask(task.id);
    if (t) {
      const current = useTasksStore.getState().byId[t.id];
      applyTask(t, current?.status === 'interrupted' ? 'event' : 'snapshot');
    }
    return true;
  } catch (err) {
    reportError(err, 'Could not resume the task');
    return false;
  }
}

export async function dismissTask(task: Task): Promise<boolean> {
  try {
    const t = await api.dismissTask(task.id);
    if (t) applyTask(t, 'snapshot');
    return true;
  } catch (err) {
    reportError(err, 'Could not dismiss the task');
    return false;
  }
}

/**
 * Opens the native folder picker for the conversation's workspace.
 * Cancelling it changes nothing (Go returns the conversation as it was).
 */
export async function chooseWorkspace(conversationId: string): Promise<boolean> {
  try {
    const c = await api.chooseWorkspace(conversationId);
    if (c) useConversationsStore.getState().upsert(c);
    return true;
  } catch (err) {
    reportError(err, 'Could not change the workspace folder');
    return false;
  }
}

/** Shows the conversation's workspace folder in the file manager. */
export function openWorkspaceFolder(conversationId: string): Promise<boolean> {
  return attempt(() => api.openWorkspaceFolder(conversationId), 'Could not open the workspace folder');
}

/** Sets the workspace folder; '' goes back to the conversation's default one. */
export async function setWorkspace(conversationId: string, dir: string): Promise<boolean> {
  try {
    const c = await api.setWorkspace(conversationId, dir);
    if (c) useConversationsStore.getState().upsert(c);
    return true;
  } catch (err) {
    reportError(err, 'Could not change the workspace folder');
    return false;
  }
}

/** Summarises the conversation's older messages for the model now. */
export function compactNow(conversationId: string): Promise<boolean> {
  return attempt(() => api.compactNow(conversationId), 'Could not compact the conversation');
}

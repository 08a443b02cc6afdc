// Pure functions over the tasks of every conversation.
import type { Task } from '../api/types';
import { isTerminal } from '../api/types';
import { timeValue } from '../lib/time';

export interface TasksState {
  byId: Record<string, Task>;
  /** The conversation's non-terminal task, if any. */
  activeByConversation: Record<string, string>;
  /** The conversation's most recently started task (active or not). */
  latestByConversation: Record<string, string>;
  /**
   * Ended tasks the person asked to bring back (Retry): the next active
   * state of such a task is taken, once. Without it an ended task never
   * comes back, so a late update cannot revive it.
   */
  revivable: Record<string, true>;
}

export function emptyTasksState(): TasksState {
  return { byId: {}, activeByConversation: {}, latestByConversation: {}, revivable: {} };
}

/** Lets the next active state of an ended task revive it (see TasksState.revivable). */
export function allowRevive(state: TasksState, taskId: string): TasksState {
  if (state.revivable?.[taskId]) return state;
  return { ...state, revivable: { ...state.revivable, [taskId]: true } };
}

export function forbidRevive(state: TasksState, taskId: string): TasksState {
  if (!state.revivable?.[taskId]) return state;
  const revivable = { ...state.revivable };
  delete revivable[taskId];
  return { ...state, revivable };
}

/**
 * Where a task object came from. Events arrive in the order Go emitted them
 * and always win (except that an ended task never comes back to life). A
 * snapshot (a call's return value, LoadConversation, ListConversations) may
 * be older than events already received, so it only wins when it is clearly
 * further along.
 */
export type TaskSource = 'event' | 'snapshot';

/** Go's revision of a task: +1 with every stored change (absent from old data). */
function revOf(t: Task): number | undefined {
  const rev = (t as { rev?: unknown }).rev;
  return typeof rev === 'number' && rev > 0 ? rev : undefined;
}

export function shouldReplace(existing: Task | undefined, incoming: Task, source: TaskSource): boolean {
  if (!existing) return true;
  const wasTerminal = isTerminal(existing.status);
  const nowTerminal = isTerminal(incoming.status);
  if (wasTerminal && !nowTerminal) return false;
  // With revisions, older is stale however it arrives (the dev server's
  // websocket can deliver events out of order), and a newer snapshot wins.
  const inRev = revOf(incoming);
  const exRev = revOf(existing);
  if (inRev !== undefined && exRev !== undefined) {
    if (inRev < exRev) return false;
    if (inRev > exRev) return true;
  }
  if (source === 'event') return true;
  if (nowTerminal && !wasTerminal) return true;
  if ((incoming.stepCount ?? 0) > (existing.stepCount ?? 0)) return true;
  // Same progress: a snapshot adds nothing an event has not already said.
  return false;
}

export function applyTask(state: TasksState, task: Task, source: TaskSource = 'event'): TasksState {
  const existing = state.byId[task.id];
  const revive =
    !!state.revivable?.[task.id] && !!existing && isTerminal(existing.status) && !isTerminal(task.status);
  if (!revive && !shouldReplace(existing, task, source)) return state;
  if (revive) state = forbidRevive(state, task.id);
  const conv = task.conversationId;
  const byId = { ...state.byId, [task.id]: task };

  let activeByConversation = state.activeByConversation;
  if (!isTerminal(task.status)) {
    if (activeByConversation[conv] !== task.id) {
      activeByConversation = { ...activeByConversation, [conv]: task.id };
    }
  } else if (activeByConversation[conv] === task.id) {
    activeByConversation = { ...activeByConversation };
    delete activeByConversation[conv];
  }

  let latestByConversation = state.latestByConversation;
  const latestId = latestByConversation[conv];
  const latest = latestId ? byId[latestId] : undefined;
  if (!latest || latest.id === task.id || timeValue(task.startedAt) >= timeValue(latest.startedAt)) {
    if (latestId !== task.id) latestByConversation = { ...latestByConversation, [conv]: task.id };
  }

  return { ...state, byId, activeByConversation, latestByConversation };
}

/**
 * The task as the window shows it from the moment Stop is clicked: Go ends
 * every active task it is asked to stop as cancelled, and its own copy (the
 * call's answer, the task's event) then replaces this one.
 */
export function stoppedAt(task: Task, at: number): Task {
  return { ...task, status: 'cancelled', endedAt: new Date(at).toISOString() };
}

export function applyTasks(state: TasksState, tasks: readonly Task[], source: TaskSource): TasksState {
  let s = state;
  for (const t of tasks) s = applyTask(s, t, source);
  return s;
}

export function removeConversationTasks(state: TasksState, conversationId: string): TasksState {
  const byId: Record<string, Task> = {};
  for (const [id, t] of Object.entries(state.byId)) {
    if (t.conversationId !== conversationId) byId[id] = t;
  }
  const activeByConversation = { ...state.activeByConversation };
  delete activeByConversation[conversationId];
  const latestByConversation = { ...state.latestByConversation };
  delete latestByConversation[conversationId];
  const revivable: Record<string, true> = {};
  for (const id of Object.keys(state.revivable ?? {})) if (byId[id]) revivable[id] = true;
  return { byId, activeByConversation, latestByConversation, revivable };
}

export function activeTaskOf(state: TasksState, conversationId: string): Task | undefined {
  const id = state.activeByConversation[conversationId];
  return id ? state.byId[id] : undefined;
}

export function latestTaskOf(state: TasksState, conversationId: string): Task | undefined {
  const id = state.latestByConversation[conversationId];
  return id ? state.byId[id] : undefined;
}

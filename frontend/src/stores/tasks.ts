import { useDeferredValue } from 'react';
import { create } from 'zustand';
import type { Task } from '../api/types';
import * as R from './tasksReducer';
import type { TaskSource, TasksState } from './tasksReducer';

export interface TasksStore extends TasksState {
  apply: (task: Task, source?: TaskSource) => void;
  applyMany: (tasks: readonly Task[], source: TaskSource) => void;
  removeConversation: (conversationId: string) => void;
  allowRevive: (taskId: string) => void;
  forbidRevive: (taskId: string) => void;
  reset: () => void;
}

function pick(s: TasksStore): TasksState {
  return {
    byId: s.byId,
    activeByConversation: s.activeByConversation,
    latestByConversation: s.latestByConversation,
    revivable: s.revivable,
  };
}

export const useTasksStore = create<TasksStore>()((set) => ({
  ...R.emptyTasksState(),
  apply: (task, source = 'event') => set((s) => R.applyTask(pick(s), task, source)),
  applyMany: (tasks, source) => set((s) => R.applyTasks(pick(s), tasks, source)),
  removeConversation: (id) => set((s) => R.removeConversationTasks(pick(s), id)),
  allowRevive: (id) => set((s) => R.allowRevive(pick(s), id)),
  forbidRevive: (id) => set((s) => R.forbidRevive(pick(s), id)),
  reset: () => set(R.emptyTasksState()),
}));

/**
 * Whether a task is at work in the conversation (it has an active task),
 * shown a frame late when it changes: for what a working task marks beside
 * the status line and the composer (the buttons it disables), so that the
 * frame of a click that ends a task renders what the person waits for
 * alone (see stopTask).
 */
export function useTaskAtWorkLater(conversationId: string): boolean {
  return useDeferredValue(useTasksStore((s) => !!s.activeByConversation[conversationId]));
}

/** The conversation's active (non-terminal) task. */
export function useActiveTask(conversationId: string | null | undefined): Task | undefined {
  return useTasksStore((s) => {
    if (!conversationId) return undefined;
    const id = s.activeByConversation[conversationId];
    return id ? s.byId[id] : undefined;
  });
}

/** The conversation's most recent task, active or ended. */
export function useLatestTask(conversationId: string | null | undefined): Task | undefined {
  return useTasksStore((s) => {
    if (!conversationId) return undefined;
    const id = s.latestByConversation[conversationId];
    return id ? s.byId[id] : undefined;
  });
}

import { create } from 'zustand';
import type { FilesChanged } from '../api/types';

/** The files a task changed, as a card shows them. */
export interface FilesEntry {
  /** null until read. */
  changed: FilesChanged | null;
  /** Why they could not be read, or ''. */
  error: string;
}

interface FilesChangedStore {
  /** By task id, for the tasks a card shows. */
  byTask: Record<string, FilesEntry>;
  /** Starts holding a task's files (no-op if held). */
  ensure: (taskId: string) => void;
  /** What is stored now; ignored for a task no card shows. */
  apply: (changed: FilesChanged) => void;
  fail: (taskId: string, error: string) => void;
  forget: (taskId: string) => void;
  reset: () => void;
}

const empty: FilesEntry = { changed: null, error: '' };

export const useFilesChangedStore = create<FilesChangedStore>()((set) => ({
  byTask: {},
  ensure: (id) => set((s) => (s.byTask[id] ? {} : { byTask: { ...s.byTask, [id]: empty } })),
  apply: (c) =>
    set((s) => {
      const held = s.byTask[c.taskId];
      if (!held) return {};
      return { byTask: { ...s.byTask, [c.taskId]: { ...held, changed: { ...c, files: c.files ?? [], notUndoable: c.notUndoable ?? [] } } } };
    }),
  fail: (id, error) => set((s) => (s.byTask[id] ? { byTask: { ...s.byTask, [id]: { ...s.byTask[id], error } } } : {})),
  forget: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.byTask;
      return { byTask: rest };
    }),
  reset: () => set({ byTask: {} }),
}));

/** The files a task changed, as held. */
export function useFilesChanged(taskId: string): FilesEntry {
  return useFilesChangedStore((s) => s.byTask[taskId]) ?? empty;
}

/** Whether a card has anything to show: files (undoable or not), not dismissed. */
export function filesToShow(changed: FilesChanged | null): changed is FilesChanged {
  return !!changed && !changed.dismissed && (changed.files.length > 0 || changed.notUndoable.length > 0);
}

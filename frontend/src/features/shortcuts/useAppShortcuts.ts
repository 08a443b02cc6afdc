// App-wide keyboard shortcuts:
//   Esc           stops the open conversation's task at once, like the Stop
//                 button (no confirmation)
//   Ctrl/Cmd+N    opens a new conversation
//   Ctrl/Cmd+K    opens the search across every conversation
// A key some control already handled (Esc in the rename field, a dialog's
// own Esc) is left alone, and nothing fires while a modal dialog is open.
import { useEffect } from 'react';
import { isTerminal } from '../../api/types';
import { stopTask } from '../../stores/actions';
import { useConversationsStore } from '../../stores/conversations';
import { useTasksStore } from '../../stores/tasks';
import { newConversation } from '../conversations/newConversation';
import { useSearchDialog } from '../search/searchDialog';

const stopping = new Set<string>();

/** Stops the open conversation's active task; false if there is none. */
export function stopOpenTask(): boolean {
  const conv = useConversationsStore.getState().selectedId;
  if (!conv) return false;
  const tasks = useTasksStore.getState();
  const tid = tasks.activeByConversation[conv];
  const task = tid ? tasks.byId[tid] : undefined;
  if (!task || isTerminal(task.status) || stopping.has(task.id)) return false;
  stopping.add(task.id);
  void stopTask(task.id).finally(() => stopping.delete(task.id));
  return true;
}

function modalOpen(): boolean {
  return document.querySelector('[aria-modal="true"], dialog[open]') !== null;
}

export function handleShortcut(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  const mod = e.ctrlKey || e.metaKey;
  if (e.key === 'Escape' && !mod && !e.altKey && !e.shiftKey) {
    if (modalOpen()) return;
    if (stopOpenTask()) e.preventDefault();
    return;
  }
  if (mod && !e.altKey && !e.shiftKey && (e.key === 'k' || e.key === 'K')) {
    e.preventDefault();
    if (e.repeat || modalOpen()) return;
    useSearchDialog.getState().show();
    return;
  }
  if (mod && !e.altKey && !e.shiftKey && (e.key === 'n' || e.key === 'N')) {
    e.preventDefault();
    if (e.repeat || modalOpen()) return;
    void newConversation();
  }
}

/** Installs the shortcuts on the window for the life of the component. */
export function useAppShortcuts(): void {
  useEffect(() => {
    window.addEventListener('keydown', handleShortcut);
    return () => window.removeEventListener('keydown', handleShortcut);
  }, []);
}

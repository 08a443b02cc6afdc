// App-wide keyboard shortcuts:
//   Esc           in a field with text in it, leaves the field (the text
//                 stays); otherwise stops the open conversation's task like
//                 the Stop button: at once while it works, after a
//                 confirmation while it waits for the person
//   Ctrl/Cmd+N    opens a new conversation
//   Ctrl/Cmd+K    opens the search across every conversation
//   Ctrl/Cmd+Q    quits, as the window's close button (Go asks first when
//                 tasks are at work)
// A key some control already handled (Esc in the rename field, a dialog's
// own Esc) is left alone, and nothing fires while a modal dialog is open.
import { useEffect } from 'react';
import { isTerminal } from '../../api/types';
import { quitApp } from '../../events';
import { stopTaskConfirmed } from '../../stores/actions';
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
  void stopTaskConfirmed(task).finally(() => stopping.delete(task.id));
  return true;
}

const TEXT_INPUTS = new Set(['text', 'search', 'url', 'email', 'number', 'password', 'tel']);

/** The text field the key was typed in, if it holds text the person typed. */
function filledField(target: EventTarget | null): HTMLElement | null {
  const field =
    target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type))
      ? target
      : null;
  return field && !field.disabled && !field.readOnly && field.value !== '' ? field : null;
}

function modalOpen(): boolean {
  return document.querySelector('[aria-modal="true"], dialog[open]') !== null;
}

export function handleShortcut(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  const mod = e.ctrlKey || e.metaKey;
  if (e.key === 'Escape' && !mod && !e.altKey && !e.shiftKey) {
    if (modalOpen()) return;
    const field = filledField(e.target);
    if (field) {
      e.preventDefault();
      field.blur();
      return;
    }
    if (stopOpenTask()) e.preventDefault();
    return;
  }
  if (mod && !e.altKey && !e.shiftKey && (e.key === 'k' || e.key === 'K')) {
    e.preventDefault();
    if (e.repeat || modalOpen()) return;
    useSearchDialog.getState().show();
    return;
  }
  if (mod && !e.altKey && !e.shiftKey && (e.key === 'q' || e.key === 'Q')) {
    e.preventDefault();
    if (!e.repeat) quitApp();
    return;
  }
  if (mod && !e.altKey && !e.shiftKey && (e.key === 'n' || e.key === 'N')) {
    e.preventDefault();
    if (e.repeat || modalOpen()) return;
    void newConversation();
  }
}

const NAV_KEYS = new Set(['Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', 'F2']);

/**
 * Marks the document as driven by the keyboard (data-input="keyboard") from
 * a navigation key until the next pointer press. The focus ring keys off it
 * as well as :focus-visible: WebKitGTK does not count a focus moved by
 * script in a key handler (↑/↓ in the conversation list) as visible.
 */
export function trackInputModality(e: Event): void {
  const root = document.documentElement;
  if (e.type === 'keydown') {
    if (NAV_KEYS.has((e as KeyboardEvent).key)) root.dataset.input = 'keyboard';
  } else if (root.dataset.input) {
    delete root.dataset.input;
  }
}

/** Installs the shortcuts on the window for the life of the component. */
export function useAppShortcuts(): void {
  useEffect(() => {
    window.addEventListener('keydown', handleShortcut);
    window.addEventListener('keydown', trackInputModality, true);
    window.addEventListener('pointerdown', trackInputModality, true);
    return () => {
      window.removeEventListener('keydown', handleShortcut);
      window.removeEventListener('keydown', trackInputModality, true);
      window.removeEventListener('pointerdown', trackInputModality, true);
    };
  }, []);
}

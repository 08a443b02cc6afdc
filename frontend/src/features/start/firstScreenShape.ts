// Whether the window shows exactly what its next start would show first: only
// then is its markup worth keeping (firstScreenCopy.ts). Strict on purpose: a
// wrong "no" costs a start its copy, a wrong "yes" shows a copy that React's
// screen then changes.
import { useAppStore } from '../../stores/app';
import { useConfirmStore } from '../../stores/confirm';
import { useConversationsStore } from '../../stores/conversations';
import { useComposerFiles } from '../../stores/composerFiles';
import { useDraftsStore } from '../../stores/drafts';
import { subscribeToMessageChanges, useMessagesStore } from '../../stores/messages';
import { useNoticesStore } from '../../stores/notices';
import { useSettingsView } from '../../stores/settingsView';
import { useTasksStore } from '../../stores/tasks';
import type { TaskStatus } from '../../api/types';
import { useBranchUI } from '../branches/state';
import { useSearchDialog } from '../search/searchDialog';

/** The statuses of a task at work: its conversation changes by itself. */
const WORKING: readonly TaskStatus[] = ['running', 'thinking', 'tool_executing'];

/** What is open, loading or chosen in the DOM alone: a dialog, a menu, a list of choices, a fold opened, a view loading. */
const TRANSIENT = 'dialog, [aria-modal="true"], [role="menu"], [role="listbox"], [aria-expanded="true"], [aria-busy="true"], .lazy-loading';

/** The fields a person types into. */
const TEXT_FIELDS = 'textarea, input:not([type]), input[type="text"], input[type="search"]';

/** The stores the shape depends on: keepFirstScreen looks again after a change to any of them. */
export const SHAPE_STORES: ReadonlyArray<{ subscribe: (listener: () => void) => () => void }> = [
  useAppStore,
  useConversationsStore,
  useTasksStore,
  { subscribe: subscribeToMessageChanges },
  useDraftsStore,
  useComposerFiles,
  useSettingsView,
  useSearchDialog,
  useBranchUI,
  useConfirmStore,
  useNoticesStore,
];

/** Whether root shows what a new start would: the newest conversation, at its end, with nothing open, typed, selected or at work. */
export function inFirstScreenShape(root: HTMLElement): boolean {
  const open = openConversation();
  return open !== null && storesAtRest(open) && domAtRest(root);
}

/** The open conversation if it is the list's first (the one a start opens), the list unfiltered. */
function openConversation(): string | null {
  const { selectedId, order, search } = useConversationsStore.getState();
  const app = useAppStore.getState();
  if (app.startup !== 'ready' || app.health?.ready === false || search) return null;
  return selectedId && selectedId === order[0] ? selectedId : null;
}

function storesAtRest(open: string): boolean {
  const tasks = useTasksStore.getState();
  const working = Object.values(tasks.activeByConversation).some((id) => {
    const status = tasks.byId[id]?.status;
    return !status || WORKING.includes(status);
  });
  const messages = useMessagesStore.getState().byConversation[open];
  const settled = !!messages && messages.loaded && !messages.loading && !messages.stale && !messages.hasNewer;
  const queued = !!messages && [...Object.values(messages.byId), ...Object.values(messages.live)].some((m) => m.delivery === 'queued');
  const branch = useBranchUI.getState();
  return (
    !working &&
    settled &&
    !queued &&
    !useDraftsStore.getState().drafts[open] &&
    !useComposerFiles.getState().byConversation[open]?.length &&
    !useSettingsView.getState().open &&
    !useSearchDialog.getState().open &&
    branch.branchFrom === null &&
    branch.variationsOf === null &&
    branch.editing === null &&
    useConfirmStore.getState().request === null &&
    useNoticesStore.getState().items.length === 0
  );
}

function domAtRest(root: HTMLElement): boolean {
  const doc = root.ownerDocument;
  const transcript = root.querySelector<HTMLElement>('.message-scroll');
  const list = root.querySelector<HTMLElement>('.conv-list-wrap');
  const fields = root.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>(TEXT_FIELDS);
  return (
    (!transcript || transcript.scrollHeight - transcript.clientHeight - transcript.scrollTop <= 1) &&
    (!list || list.scrollTop === 0) &&
    [...fields].every((f) => f.value === '') &&
    !root.querySelector(TRANSIENT) &&
    !doc.querySelector('dialog[open], [aria-modal="true"]') &&
    (doc.getSelection()?.isCollapsed ?? true)
  );
}

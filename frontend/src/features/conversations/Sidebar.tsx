import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { isBusy } from '../../api/types';
import { lazyView } from '../../components/LazyView';
import { Spinner } from '../../components/Motion';
import { PencilIcon } from '../../components/PencilIcon';
import { TitleInput } from '../../components/TitleInput';
import { displayTitle } from '../../lib/displayTitle';
import { usePainted } from '../../lib/usePainted';
import { renameConversation, selectConversation } from '../../stores/actions';
import { loadMoreConversations, loadMoreSearch, searchConversations } from '../../stores/conversationList';
import { useAgentsStore, useConversationAgent } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { listedOrder } from '../../stores/conversationsReducer';
import { useTasksStore } from '../../stores/tasks';
import { ImportButton } from '../archive/ImportButton';
import { SettingsButton } from '../settings/SettingsButton';
import { requestDelete, useDeleteRequest } from './deleteRequest';
import { newConversation } from './newConversation';
import { PlanBadge } from '../plan/PlanChecklist';
import { ConversationStateChip } from '../chat/ConversationStateChip';

// The delete confirmation loads once the first screen is painted.
const ConfirmDeleteDialog = lazyView('the question', () => import('./ConfirmDeleteDialog').then((m) => m.ConfirmDeleteDialog), {
  prefetch: true,
});

/** The delete confirmation, while a deletion waits for it. */
function DeleteConfirmation() {
  const asked = useDeleteRequest((s) => s.id !== null);
  return asked ? <ConfirmDeleteDialog /> : null;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
export const NEW_SHORTCUT = isMac ? '⌘N' : 'Ctrl+N';

function TrashIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        d="M2.8 4.3h10.4M6.3 4.3V2.9c0-.4.3-.7.7-.7h2c.4 0 .7.3.7.7v1.4M4.2 4.3l.6 8.6c0 .6.5 1 1.1 1h4.2c.6 0 1.1-.4 1.1-1l.6-8.6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** An inline title editor: Enter saves, Esc cancels, leaving the field saves. */
function RowRename({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  return <TitleInput initial={initial} onDone={onDone} className="conv-rename" label="New title" />;
}

interface RowProps {
  id: string;
  index: number;
  /** Where the row sits in the list (px from the top). */
  start: number;
  /** This row holds the list's one tab stop (roving tabindex). */
  tabStop: boolean;
  onFocusRow: (id: string) => void;
  onMove: (from: string, to: 'next' | 'prev' | 'first' | 'last') => void;
}

const ConversationRow = memo(function ConversationRow({ id, index, start, tabStop, onFocusRow, onMove }: RowProps) {
  const title = useConversationsStore((s) => s.byId[id]?.title);
  const agent = useConversationAgent(useConversationsStore((s) => s.byId[id]?.agentId));
  const selected = useConversationsStore((s) => s.selectedId === id);
  const unread = useConversationsStore((s) => s.unread[id] ?? 0);
  const needsInput = useConversationsStore((s) => !!s.needsInput[id]);
  // Shown a frame late when it changes in a click (Stop): see stopTask.
  const live = useDeferredValue(
    useTasksStore((s) => {
      const tid = s.activeByConversation[id];
      const t = tid ? s.byId[tid] : undefined;
      return !!t && isBusy(t.status);
    }),
  );
  // The running task's plan, compactly: "Plan · 2 of 5 · current step".
  const plan = useTasksStore((s) => {
    const tid = s.activeByConversation[id];
    return tid ? s.byId[tid]?.plan : undefined;
  });
  const [renaming, setRenaming] = useState(false);
  const rowRef = useRef<HTMLButtonElement>(null);
  const name = displayTitle(title);

  const onRenamed = (value: string | null) => {
    setRenaming(false);
    if (value !== null) void renameConversation(id, value);
    requestAnimationFrame(() => rowRef.current?.focus());
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        onMove(id, 'next');
        break;
      case 'ArrowUp':
        e.preventDefault();
        onMove(id, 'prev');
        break;
      case 'Home':
        e.preventDefault();
        onMove(id, 'first');
        break;
      case 'End':
        e.preventDefault();
        onMove(id, 'last');
        break;
      case 'F2':
        e.preventDefault();
        setRenaming(true);
        break;
      case 'Delete':
        e.preventDefault();
        requestDelete(id);
        break;
    }
  };

  const classes = ['conv-item'];
  if (selected) classes.push('is-selected');
  if (needsInput) classes.push('needs-input-row');

  return (
    <li
      data-index={index}
      className={classes.join(' ')}
      data-conversation-id={id}
      style={{ transform: `translateY(${start}px)` }}
    >
      {renaming ? (
        <RowRename initial={title ?? ''} onDone={onRenamed} />
      ) : (
        <button
          ref={rowRef}
          type="button"
          className={`conv-row${selected ? ' is-selected' : ''}`}
          aria-current={selected ? 'true' : undefined}
          tabIndex={tabStop ? 0 : -1}
          title={name}
          onFocus={() => onFocusRow(id)}
          onKeyDown={onKeyDown}
          onDoubleClick={() => setRenaming(true)}
          onClick={() => {
            if (!selected) void selectConversation(id);
          }}
        >
          <span className="conv-title">{name}</span>
          <span className="conv-marks">
            {agent && (
              <span className="conv-agent" title={`Agent: ${agent.name}`}>
                <span className="agent-dot" style={{ background: agent.color || undefined }} aria-hidden="true" />
                <span className="sr-only">Agent: </span>
                {agent.name}
              </span>
            )}
            <ConversationStateChip conversationId={id} compact />
            {plan && <PlanBadge plan={plan} />}
            {live && (
              <Spinner className="live-dot" title="Working">
                <span className="sr-only">Working</span>
              </Spinner>
            )}
            {needsInput && (
              <span className="needs-input" title="The agent is waiting for you">
                Needs input
              </span>
            )}
            {unread > 0 && (
              <span className="unread" title={`${unread} unread`}>
                {unread > 99 ? '99+' : unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </span>
        </button>
      )}
      {!renaming && (
        <span className="conv-actions">
          <button
            type="button"
            className="icon-btn"
            tabIndex={tabStop ? 0 : -1}
            aria-label={`Rename ${name}`}
            title="Rename (F2)"
            onFocus={() => onFocusRow(id)}
            onClick={() => setRenaming(true)}
          >
            <PencilIcon />
          </button>
          <button
            type="button"
            className="icon-btn icon-btn-danger"
            tabIndex={tabStop ? 0 : -1}
            aria-label={`Delete ${name}`}
            title="Delete (Del)"
            onFocus={() => onFocusRow(id)}
            onClick={() => requestDelete(id)}
          >
            <TrashIcon />
          </button>
        </span>
      )}
    </li>
  );
});

/** How long typing pauses before the search runs (ms). */
export const SEARCH_DEBOUNCE_MS = 250;
/** Rows from the list's end at which its next page is asked for. */
const PAGE_AHEAD = 15;

/**
 * The title search and the filter by agent: Go searches every
 * conversation, once typing pauses.
 */
function SearchBox() {
  const [text, setText] = useState('');
  const [agent, setAgent] = useState('');
  const archived = useConversationsStore((s) => !!s.search?.archived);
  const [showArchived, setShowArchived] = useState(archived);
  const agents = useAgentsStore((s) => s.list);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => void searchConversations(text, agent, showArchived), text.trim() ? SEARCH_DEBOUNCE_MS : 0);
    return () => clearTimeout(t);
  }, [text, agent, showArchived]);
  return (
    <>
    <button
      type="button"
      className={`btn btn-ghost btn-small conv-archived-toggle${showArchived ? ' is-on' : ''}`}
      aria-pressed={showArchived}
      title={showArchived ? 'Back to the conversations' : 'Show the archived conversations'}
      onClick={() => setShowArchived((v) => !v)}
    >
      Archived
    </button>
    <select
      className="conv-filter"
      aria-label="Filter conversations"
      value={agent}
      onChange={(e) => setAgent(e.target.value)}
    >
      <option value="">All agents</option>
      {agents.map((a) => (
        <option key={a.id} value={a.id}>
          {a.name}
        </option>
      ))}
    </select>
    <input
      type="search"
      className="conv-search"
      aria-label="Search conversations"
      placeholder="Search conversations"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && text) {
          e.preventDefault();
          setText('');
        }
      }}
    />
    </>
  );
}

/** The ids the list shows: the search's matches, or the conversations its pages reached. */
function useListedIds(): {
  ids: string[];
  hasMore: boolean;
  loadingMore: boolean;
  failed: boolean;
  searching: boolean;
  archived: boolean;
} {
  const order = useConversationsStore((s) => s.order);
  const activity = useConversationsStore((s) => s.activity);
  const boundary = useConversationsStore((s) => s.listBoundary);
  const listCursor = useConversationsStore((s) => s.listCursor);
  const listLoading = useConversationsStore((s) => s.listLoading);
  const listFailed = useConversationsStore((s) => s.listFailed);
  const search = useConversationsStore((s) => s.search);
  const byId = useConversationsStore((s) => s.byId);
  const archived = !!search?.archived;
  // A conversation archived or restored since it was listed leaves the view it was in.
  const listed = useMemo(
    () => listedOrder({ order, activity }, boundary).filter((id) => !byId[id]?.archived),
    [order, activity, boundary, byId],
  );
  const found = useMemo(() => search?.ids.filter((id) => !!byId[id]?.archived === archived), [search, byId, archived]);
  if (search && found) {
    return { ids: found, hasMore: !!search.cursor, loadingMore: search.loading, failed: !!search.failed, searching: true, archived };
  }
  return { ids: listed, hasMore: !!listCursor, loadingMore: listLoading, failed: listFailed, searching: false, archived };
}

/**
 * The order to show while the pointer is over the list: the order it had
 * when the pointer came in (so a task finishing elsewhere does not move the
 * row about to be clicked), conversations new since then first, those gone
 * left out.
 */
export function heldOrder(held: readonly string[], current: readonly string[]): string[] {
  const now = new Set(current);
  const before = new Set(held);
  return [...current.filter((id) => !before.has(id)), ...held.filter((id) => now.has(id))];
}

/** The listed ids, held still while the pointer is over the list (see heldOrder). */
function useStillWhileHovered(ids: string[]) {
  const [held, setHeld] = useState<string[] | null>(null);
  const idsRef = useRef(ids);
  idsRef.current = ids;
  const shown = useMemo(() => (held ? heldOrder(held, ids) : ids), [held, ids]);
  const hold = useCallback(() => setHeld(idsRef.current), []);
  const release = useCallback(() => setHeld(null), []);
  return { shown, hold, release };
}

/** Rows have a fixed height (CSS .conv-row, .conv-rename), so none is measured. */
const ROW_HEIGHT = 36;
const ROW_GAP = 2;

/**
 * The conversation list, newest activity first. Virtualized like the
 * transcript: with thousands of conversations only the rows in view are
 * rendered (and subscribed to the stores). One tab stop (roving tabindex):
 * ↑/↓/Home/End move, Enter opens, F2 renames, Delete asks to delete.
 */
export function Sidebar() {
  const { ids: listedIds, hasMore, loadingMore, failed, searching, archived } = useListedIds();
  const { shown: order, hold, release } = useStillWhileHovered(listedIds);
  const listed = useConversationsStore((s) => s.listed);
  const selectedId = useConversationsStore((s) => s.selectedId);
  const [creating, setCreating] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const pendingFocus = useRef<string | null>(null);

  // The list's tab stop: the row last focused if it still exists, else the open one, else the first.
  const tabStopId = focusId && order.includes(focusId) ? focusId : selectedId && order.includes(selectedId) ? selectedId : order[0];

  const orderRef = useRef(order);
  orderRef.current = order;
  // The row holding the tab stop is always rendered, so Tab always reaches the list.
  const tabStopIndex = useRef(-1);
  tabStopIndex.current = tabStopId ? order.indexOf(tabStopId) : -1;
  const rangeExtractor = useCallback((range: Range) => {
    const out = defaultRangeExtractor(range);
    const t = tabStopIndex.current;
    if (t >= 0 && t < range.count && !out.includes(t)) {
      out.push(t);
      out.sort((a, b) => a - b);
    }
    return out;
  }, []);
  const painted = usePainted();
  const virtualizer = useVirtualizer({
    count: order.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: useCallback((i: number) => orderRef.current[i] ?? i, []),
    // The rows out of view come after the first paint.
    overscan: painted ? 12 : 1,
    gap: ROW_GAP,
    rangeExtractor,
  });

  // The open conversation is always in view (e.g. a new one, at the top).
  useEffect(() => {
    const i = selectedId ? orderRef.current.indexOf(selectedId) : -1;
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'auto' });
  }, [selectedId, virtualizer]);

  const focusRow = (id: string) => {
    const li = Array.from(listRef.current?.children ?? []).find((el) => (el as HTMLElement).dataset.conversationId === id);
    const btn = li?.querySelector<HTMLButtonElement>('.conv-row');
    btn?.focus();
    return !!btn;
  };

  // A row moved to by keyboard may not be rendered yet: focus it once it is.
  useLayoutEffect(() => {
    if (pendingFocus.current && focusRow(pendingFocus.current)) pendingFocus.current = null;
  });

  const onNew = async () => {
    setCreating(true);
    try {
      await newConversation();
    } finally {
      setCreating(false);
    }
  };

  const onMove = useCallback(
    (from: string, to: 'next' | 'prev' | 'first' | 'last') => {
      const ids = orderRef.current;
      const i = ids.indexOf(from);
      const j =
        to === 'first' ? 0 : to === 'last' ? ids.length - 1 : to === 'next' ? Math.min(ids.length - 1, i + 1) : Math.max(0, i - 1);
      const target = ids[j];
      if (!target) return;
      setFocusId(target);
      virtualizer.scrollToIndex(j, { align: 'auto' });
      if (!focusRow(target)) pendingFocus.current = target;
    },
    [virtualizer],
  );

  const items = virtualizer.getVirtualItems();

  // Near the end of what is listed, the next page is read; after a page
  // failed, only the button asks again (no loop of errors).
  const lastIndex = items[items.length - 1]?.index ?? -1;
  const loadMore = useCallback(() => void (searching ? loadMoreSearch() : loadMoreConversations()), [searching]);
  useEffect(() => {
    if (hasMore && !loadingMore && !failed && lastIndex >= order.length - PAGE_AHEAD) loadMore();
  }, [hasMore, loadingMore, failed, lastIndex, order.length, loadMore]);

  return (
    <aside className="sidebar" aria-label="Conversations">
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Errand
        </div>
        <button
          type="button"
          className="btn btn-new"
          disabled={creating}
          aria-keyshortcuts={isMac ? 'Meta+N' : 'Control+N'}
          title={`New conversation (${NEW_SHORTCUT})`}
          onClick={() => void onNew()}
        >
          <span aria-hidden="true" className="plus">
            +
          </span>
          New conversation
          <kbd className="kbd" aria-hidden="true">
            {NEW_SHORTCUT}
          </kbd>
        </button>
        <SearchBox />
      </div>
      <nav
        className="conv-list-wrap"
        aria-label={archived ? 'Archived conversations' : 'Conversation list'}
        ref={scrollRef}
        onPointerEnter={hold}
        onPointerLeave={release}
      >
        <ul
          className="conv-list"
          ref={listRef}
          style={{ height: virtualizer.getTotalSize() }}
          data-count={order.length}
        >
          {items.map((v) => {
            const id = order[v.index];
            if (!id) return null;
            return (
              <ConversationRow
                key={id}
                id={id}
                index={v.index}
                start={v.start}
                tabStop={id === tabStopId}
                onFocusRow={setFocusId}
                onMove={onMove}
              />
            );
          })}
        </ul>
        {hasMore && (
          <button type="button" className="btn load-more" disabled={loadingMore} onClick={loadMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
        {searching && !loadingMore && order.length === 0 && (
          <p className="muted sidebar-empty">{archived ? 'No archived conversations.' : 'No conversations match.'}</p>
        )}
        {!searching && listed && order.length === 0 && <p className="muted sidebar-empty">No conversations yet.</p>}
      </nav>
      <SettingsButton>
        <ImportButton />
      </SettingsButton>
      <DeleteConfirmation />
    </aside>
  );
}

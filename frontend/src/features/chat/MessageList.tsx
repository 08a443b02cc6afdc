// The transcript: a virtualized list (only the rows in view, plus some
// overscan, are in the DOM), so a conversation of 10,000 messages opens and
// scrolls as fast as a short one. Rows are measured as they render; the
// list sticks to the bottom only while the user is at the bottom, otherwise
// a "Jump to latest" button appears. The status indicator is the list's
// last row, always rendered, so it sits just below the last message.
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Loading } from '../../components/LazyView';
import { usePainted } from '../../lib/usePainted';
import type { ConversationMessages } from '../../stores/messagesReducer';
import { messageOf, orderedMessages } from '../../stores/messagesReducer';
import { useAppStore } from '../../stores/app';
import { useMessagesStore } from '../../stores/messages';
import { loadNewer, loadOlder, showFirst, showLatest } from '../../stores/sync';
import { StatusLine } from './StatusLine';
import {
  buildRows,
  EMPTY_ROWS,
  itemOf,
  messageItems,
  sameRows,
  type TranscriptItem,
  type TranscriptRows,
} from './transcript';
import { TranscriptItemView } from './TranscriptItemView';
import { currentQuestionRows, useWindowShape } from '../agents/windowShape';
import { nearEnd, STICK_DISTANCE } from '../../lib/scrollEnd';

const GAP = 14;
/** Rows rendered beyond each edge of the view (once the pane is painted). */
const OVERSCAN = 8;
const PAD_START = 24;
/** Room at the top for "Load earlier messages" while earlier ones exist. */
const PAD_START_PAGED = 52;
const PAD_END = 20;
/** Rows from the window's edge at which the next page is asked for. */
const PAGE_AHEAD = 12;
/** Within this many px of the top, the next older page is asked for. */
const LOAD_DISTANCE = 1500;
/**
 * The status row's key names the last message row, so that it changes when
 * a row is appended: that is how the virtualizer tells an append (and
 * follows it when at the bottom) from a resize.
 */
function statusKey(rows: TranscriptRows): string {
  return `\u0000status:${rows.keys[rows.keys.length - 1] ?? ''}`;
}

/** The list's height by the rows' estimates (the status row's too). */
function estimatedHeight(rows: TranscriptRows, hasOlder: boolean): number {
  let h = (hasOlder ? PAD_START_PAGED : PAD_START) + PAD_END + STATUS_ESTIMATE;
  for (const kind of rows.kinds) h += ESTIMATES[kind] + GAP;
  return h;
}

const ESTIMATES: Record<TranscriptItem['kind'], number> = {
  user: 48,
  answer: 66,
  notice: 28,
  decision: 24,
  summary: 28,
  agent: 96,
  thinking: 34,
  update: 64,
  question: 104,
  complete: 92,
  toolCall: 30,
  toolResult: 30,
};

/** The status row's estimated height. */
const STATUS_ESTIMATE = 32;

// The last rows computed per conversation, so that a delta that changes a
// message's text but not the list's shape returns the same rows object and
// the list itself does not re-render.
const rowsCache = new Map<string, { conv: ConversationMessages; thinking: boolean; rows: TranscriptRows }>();

/** The rows of a conversation; thinking: with the models' thinking blocks (Settings.showThinking). */
export function selectRows(conversationId: string, conv: ConversationMessages | undefined, thinking = true): TranscriptRows {
  if (!conv) return EMPTY_ROWS;
  const prev = rowsCache.get(conversationId);
  const same = prev?.thinking === thinking;
  if (same && prev.conv === conv) return prev.rows;
  if (same && onlyTextGrew(prev.conv, conv, thinking)) {
    rowsCache.set(conversationId, { conv, thinking, rows: prev.rows });
    return prev.rows;
  }
  const next = buildRows(orderedMessages(conv), thinking);
  const rows = prev && sameRows(prev.rows, next) ? prev.rows : next;
  rowsCache.set(conversationId, { conv, thinking, rows });
  return rows;
}

/**
 * Whether the change from a to b left every row as it was: only streamed
 * messages changed (deltas), and each still shows the same items. Costs the
 * number of streaming messages, not of messages, so a delta stays cheap in
 * a conversation of thousands.
 */
function onlyTextGrew(a: ConversationMessages, b: ConversationMessages, thinking: boolean): boolean {
  if (a.ids !== b.ids || a.byId !== b.byId) return false;
  for (const [id, m] of Object.entries(b.live)) {
    const before = messageOf(a, id);
    if (before === m) continue;
    if (!before || !sameItems(messageItems(before, thinking), messageItems(m, thinking))) return false;
  }
  return true;
}

function sameItems(a: readonly TranscriptItem[], b: readonly TranscriptItem[]): boolean {
  return a.length === b.length && a.every((item, i) => item.key === b[i]!.key && item.kind === b[i]!.kind);
}

/** One row: subscribes to its own message, so a streaming reply re-renders only itself. */
/** How long a message opened from a search stays marked (ms). */
const FOUND_MS = 4000;

const TranscriptRow = memo(function TranscriptRow({
  conversationId,
  messageId,
  itemKey,
  index,
  measure,
  found,
}: {
  conversationId: string;
  messageId: string;
  itemKey: string;
  index: number;
  measure: (el: HTMLDivElement | null) => void;
  found: boolean;
}) {
  const message = useMessagesStore((s) => {
    const conv = s.byConversation[conversationId];
    return conv && messageOf(conv, messageId);
  });
  const thinking = useAppStore((s) => s.showThinking);
  const item = itemOf(message, itemKey, thinking);
  if (!item) return <div ref={measure} data-index={index} className="row-pending" />;
  return <TranscriptItemView conversationId={conversationId} item={item} rowRef={measure} index={index} found={found} />;
});

/** The status line's row: under the last row, or (start: px below the first rendered row's top) where the virtualizer puts it when that row is not rendered. */
function StatusSlot({
  conversationId,
  index,
  measure,
  start,
}: {
  conversationId: string;
  index: number;
  measure: (el: HTMLDivElement | null) => void;
  start?: number;
}) {
  const placed = start !== undefined;
  return (
    <div
      className={placed ? 'status-slot' : 'status-slot status-slot-flow'}
      data-index={index}
      ref={measure}
      style={placed ? { transform: `translateY(${start}px)` } : { marginTop: GAP }}
    >
      <StatusLine conversationId={conversationId} />
    </div>
  );
}

type PagingFlag = 'hasOlder' | 'loadingOlder' | 'hasNewer' | 'pageFailed';

/** One of the window's paging flags (false before the conversation is held). */
function usePaging(conversationId: string, flag: PagingFlag): boolean {
  return useMessagesStore((s) => !!s.byConversation[conversationId]?.[flag]);
}

function EmptyState({ loading }: { loading: boolean }) {
  if (loading) return <div className="empty-state muted">Loading…</div>;
  return (
    <div className="empty-state">
      <h2>What should Errand do?</h2>
      <p className="muted">
        Hand it a task. It works on its own over many steps, asks when it needs you, and you can stop it at any time.
        For a simple reply, set the Mode under the message box to Chat. Type / for your saved prompts.
      </p>
    </div>
  );
}

function VirtualTranscript({ conversationId }: { conversationId: string }) {
  const thinking = useAppStore((s) => s.showThinking);
  const allRows = useMessagesStore((s) => selectRows(conversationId, s.byConversation[conversationId], thinking));
  // An agent may hide the history: the person sees its current question on.
  const { showHistory } = useWindowShape(conversationId);
  const rows = useMemo(() => (showHistory ? allRows : currentQuestionRows(allRows)), [allRows, showHistory]);
  const loadingFirst = useMessagesStore((s) => {
    const c = s.byConversation[conversationId];
    return !c || (!c.loaded && c.loading);
  });
  const hasOlder = usePaging(conversationId, 'hasOlder') && showHistory;
  const loadingOlder = usePaging(conversationId, 'loadingOlder');
  const hasNewer = usePaging(conversationId, 'hasNewer');
  const pageFailed = usePaging(conversationId, 'pageFailed');
  const scrollRef = useRef<HTMLDivElement>(null);
  const n = rows.keys.length;

  useEffect(() => () => void rowsCache.delete(conversationId), [conversationId]);

  const estimateSize = useCallback(
    (i: number) => (i < rows.keys.length ? ESTIMATES[rows.kinds[i] ?? 'agent'] : STATUS_ESTIMATE),
    [rows],
  );
  const getItemKey = useCallback((i: number) => (i < rows.keys.length ? rows.keys[i]! : statusKey(rows)), [rows]);
  // The status row (the last) is always rendered, wherever the user scrolled.
  const rangeExtractor = useCallback((range: Range) => {
    const out = defaultRangeExtractor(range);
    const last = range.count - 1;
    if (last >= 0 && out[out.length - 1] !== last) out.push(last);
    return out;
  }, []);

  // A message to bring into view (a jump from a search), if any.
  const focusId = useMessagesStore((s) => s.byConversation[conversationId]?.focusId ?? null);
  const painted = usePainted();

  // Whether the view follows the latest text (see the layout effect below).
  const follow = useRef(true);
  const virtualizer = useVirtualizer({
    // The first render already shows the rows at the end, where the list
    // opens: before the pane is laid out its height is taken to be the
    // window's, and the offset the end's by the rows' estimates. Else it
    // rendered (and parsed the Markdown of) the first rows, then the last.
    initialRect: { width: 0, height: window.innerHeight },
    initialOffset: () => Math.max(0, estimatedHeight(rows, hasOlder) - window.innerHeight),
    count: n + 1,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    rangeExtractor,
    // The rows out of view come after the first paint: the pane is shown
    // sooner, and they are there before the person can scroll to them.
    overscan: painted || focusId ? OVERSCAN : 1,
    gap: GAP,
    paddingStart: hasOlder ? PAD_START_PAGED : PAD_START,
    paddingEnd: PAD_END,
    anchorTo: 'end',
    // Rows put at the end are followed only while the view follows: a
    // page of newer messages read on the way down is not jumped over.
    followOnAppend: follow.current,
    scrollEndThreshold: STICK_DISTANCE,
    // While the view follows the latest text, a row's resize or a scroll
    // renders the list at the next update, not at once: a synchronous
    // render would take the streaming reply's pending (deferred) render
    // with it on every frame. While the person scrolls, rows render at
    // once (no blank viewport). Before the first paint too: the rows'
    // measured heights move the end, and rendered later the first paint
    // could show the list short of it (seen in the real window under load).
    useFlushSync: !follow.current || !painted,
  });

  // Whether the view follows the latest text: until the person scrolls up
  // (wheel, touch, keys, the scrollbar, or any move up away from the
  // bottom), and again once they are back at the bottom. Read from the DOM after every render, so it holds
  // however the engine orders its scroll events (WebKitGTK fires them after
  // the next resize, which left the virtualizer's own following short).
  const unfollow = () => {
    follow.current = false;
  };
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !follow.current || !opened.current || hasNewer) return;
    const max = el.scrollHeight - el.clientHeight;
    if (max - el.scrollTop > 1) el.scrollTop = max;
  });
  // At the bottom it follows again; moved up away from it, it stops (the
  // view itself only ever moves down while it follows).
  const lastTop = useRef(0);
  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    // (The bottom of a window that ends before the latest is not the end.)
    if (!hasNewer && nearEnd(el)) follow.current = true;
    else if (el.scrollTop < lastTop.current) follow.current = false;
    lastTop.current = el.scrollTop;
  };

  // Open at the latest message, once the messages are there.
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (opened.current || n === 0) return;
    opened.current = true;
    virtualizer.scrollToEnd();
  }, [n, virtualizer]);

  // A jump: bring the message into view (its first row, centred), once,
  // and mark it for a moment.
  const [foundId, setFoundId] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (!focusId) return;
    const i = rows.messageIds.indexOf(focusId);
    if (i < 0) return;
    opened.current = true;
    follow.current = false;
    virtualizer.scrollToIndex(i, { align: 'center' });
    setFoundId(focusId);
    useMessagesStore.getState().setFocus(conversationId, null);
  }, [focusId, rows, virtualizer, conversationId]);
  useEffect(() => {
    if (!foundId) return;
    const t = setTimeout(() => setFoundId(null), FOUND_MS);
    return () => clearTimeout(t);
  }, [foundId]);

  // Rows that arrived while the user was reading further up. While the
  // view follows the latest, it is at the end by design (the layout effect
  // above keeps it there), even in the render before the scroll lands.
  const atEnd = n === 0 || ((follow.current || virtualizer.isAtEnd()) && !hasNewer);
  const [seen, setSeen] = useState(n);
  useEffect(() => {
    if (atEnd && seen !== n) setSeen(n);
  }, [atEnd, n, seen]);

  const items = virtualizer.getVirtualItems();
  const rowItems = items.filter((v) => v.index < n);
  const statusItem = items.find((v) => v.index === n);
  const top = rowItems[0]?.start ?? PAD_START;

  // Near the window's first (last) row, the next page of older (newer)
  // messages is read. The virtualizer keeps the rows in view where they
  // are when rows are put before them (anchorTo: 'end'), so nothing jumps.
  const firstIndex = rowItems[0]?.index;
  const lastIndex = rowItems[rowItems.length - 1]?.index;
  useEffect(() => {
    // After a page failed, only the button asks again (no loop of errors).
    if (!opened.current || firstIndex === undefined || !hasOlder || loadingOlder || pageFailed) return;
    // The rows of the render before the opening scroll to the end are at
    // the top: the scroll position says whether the person is.
    const nearTop = (scrollRef.current?.scrollTop ?? 0) < LOAD_DISTANCE;
    if (firstIndex < PAGE_AHEAD && nearTop) void loadOlder(conversationId);
  }, [conversationId, firstIndex, hasOlder, loadingOlder, pageFailed]);
  useEffect(() => {
    if (!opened.current || lastIndex === undefined || pageFailed) return;
    if (hasNewer && lastIndex >= n - PAGE_AHEAD) void loadNewer(conversationId);
  }, [conversationId, lastIndex, hasNewer, n, pageFailed]);

  const jump = () => {
    follow.current = true;
    const done = () => {
      virtualizer.scrollToEnd();
      scrollRef.current?.focus({ preventScroll: true });
    };
    if (hasNewer) void showLatest(conversationId).then(() => requestAnimationFrame(done));
    else done();
  };

  // A message the person sends brings the view back to the latest.
  const latestAsked = useMessagesStore((s) => s.byConversation[conversationId]?.latestAsked ?? 0);
  const latestSeen = useRef(latestAsked);
  useLayoutEffect(() => {
    if (latestAsked === latestSeen.current) return;
    latestSeen.current = latestAsked;
    jump();
  });

  // Home and End go all the way at once, to the conversation's first and
  // latest message, however many pages away (not page by page); the
  // browser's animated keyboard scroll would also be cut short by the
  // re-measuring of rows on the way.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || e.altKey || e.shiftKey || n === 0) return;
    if (e.key === 'ArrowUp' || e.key === 'PageUp') unfollow();
    if (e.key === 'Home') {
      unfollow();
      e.preventDefault();
      const top = () => virtualizer.scrollToOffset(0);
      if (hasOlder) void showFirst(conversationId).then(() => requestAnimationFrame(top));
      else top();
    } else if (e.key === 'End') {
      e.preventDefault();
      jump();
    }
  };

  return (
    <div className="message-pane">
      <div
        className="message-scroll"
        ref={scrollRef}
        tabIndex={0}
        role="region"
        aria-label="Messages"
        onKeyDown={onKeyDown}
        onScroll={onScroll}
        onWheel={(e) => e.deltaY < 0 && unfollow()}
        onTouchMove={unfollow}
        // On the scrollbar (the region itself, not a row in it).
        onPointerDown={(e) => e.target === e.currentTarget && unfollow()}
      >
        {n === 0 ? (
          <>
            <div className="message-list" role="log" aria-label="Conversation" aria-live="off" data-items={0}>
              <EmptyState loading={loadingFirst} />
            </div>
            <div className="status-slot status-slot-static">
              <StatusLine conversationId={conversationId} />
            </div>
          </>
        ) : (
          <div className="virtual-space" style={{ height: virtualizer.getTotalSize() }}>
            {hasOlder && (
              <button
                type="button"
                className="load-earlier"
                disabled={loadingOlder}
                onClick={() => void loadOlder(conversationId)}
              >
                {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
              </button>
            )}
            <div className="virtual-rows" style={{ transform: `translateY(${top}px)` }}>
              <div className="message-list is-virtual" role="log" aria-label="Conversation" aria-live="off" data-items={n}>
                {rowItems.map((v) => (
                  <TranscriptRow
                    key={v.key as string}
                    conversationId={conversationId}
                    messageId={rows.messageIds[v.index]!}
                    itemKey={rows.keys[v.index]!}
                    index={v.index}
                    measure={virtualizer.measureElement}
                    found={foundId !== null && rows.messageIds[v.index] === foundId}
                  />
                ))}
              </div>
              {/* Under the last row, in its flow: a reply that grows pushes
                  the status down in the same frame (placed by the rows'
                  measured heights, it followed a frame late, over the
                  reply's newest line). The same element either way, so
                  its clocks go on when the person scrolls. */}
              {statusItem && (
                <StatusSlot
                  conversationId={conversationId}
                  index={n}
                  measure={virtualizer.measureElement}
                  start={lastIndex === n - 1 ? undefined : statusItem.start - top}
                />
              )}
            </div>
          </div>
        )}
      </div>
      {!atEnd && opened.current && (
        <button type="button" className="jump-latest" onClick={jump}>
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
            <path d="M8 3v10M3.5 8.5 8 13l4.5-4.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          Jump to latest
          {n > seen && <span className="jump-new">New</span>}
        </button>
      )}
    </div>
  );
}

/**
 * The transcript of one conversation; a fresh list (and scroll position)
 * per conversation. It is shown whole once the Markdown parser is there
 * (it loads after the first screen, or when a reply is first shown): until
 * then the pane keeps its place and says it is loading.
 */
export function MessageList({ conversationId }: { conversationId: string }) {
  return (
    <Suspense
      fallback={
        <div className="message-pane">
          <Loading label="the conversation" />
        </div>
      }
    >
      <VirtualTranscript key={conversationId} conversationId={conversationId} />
    </Suspense>
  );
}

// Keeps the stores in step with Go: event handlers and conversation
// (re)loads. Events arrive for every conversation; conversations that were
// never loaded only get their sidebar state (activity, unread, active task).
import { afterPaint, nextFrame } from '../lib/frames';
import * as api from '../api';
import { MESSAGE_PAGE } from '../api/pageSizes';
import { toApiError } from '../api/errors';
import type {
  Conversation,
  ConversationView,
  FactsChangedEvent,
  FilesChanged,
  MCPServerState,
  Message,
  MessageDeltaEvent,
  Task,
  TaskMessageEvent,
} from '../api/types';
import { isTerminal, needsPerson } from '../api/types';
import { onFactsChanged, onFilesChanged, onMCPServer, subscribeAll, type Unsubscribe } from '../events';
import { useConversationsStore } from './conversations';
import { ALL_FACTS, useFactsStore } from './facts';
import { useFilesChangedStore } from './filesChanged';
import { useMcpServersStore } from './mcpServers';
import { handleToolOutput } from './toolOutput';
import { useMessagesStore } from './messages';
import { messageOf, type ConversationMessages } from './messagesReducer';
import { reportError } from './notices';
import { useTasksStore } from './tasks';
import type { TaskSource } from './tasksReducer';
import { useUsageStore } from './usage';

/** Reloads of one conversation are at least this far apart (ms). */
export const RELOAD_INTERVAL_MS = 400;
/** A reload waits at least this long (ms), a few frames, for the deltas before one that came early. */
const EARLY_WAIT_MS = 50;

interface LoadTracker {
  promise: Promise<void> | null;
  again: boolean;
  lastAt: number;
  timer: ReturnType<typeof setTimeout> | null;
  /** A reload was asked for that no delta coming late can make needless (see requestReload). */
  certain: boolean;
}

const trackers = new Map<string, LoadTracker>();

function tracker(id: string): LoadTracker {
  let t = trackers.get(id);
  if (!t) {
    t = { promise: null, again: false, lastAt: -Infinity, timer: null, certain: false };
    trackers.set(id, t);
  }
  return t;
}

/** Recomputes the needs-input flag from the conversation's active task (an answer, an approval, a paused limit, a resume). */
function refreshNeedsInput(conversationId: string): void {
  const tasks = useTasksStore.getState();
  const activeId = tasks.activeByConversation[conversationId];
  const active = activeId ? tasks.byId[activeId] : undefined;
  useConversationsStore.getState().setNeedsInput(conversationId, needsPerson(active?.status));
}

export function applyTask(task: Task, source: TaskSource): void {
  useTasksStore.getState().apply(task, source);
  refreshNeedsInput(task.conversationId);
}

export function applyTasks(tasks: readonly Task[], source: TaskSource): void {
  if (tasks.length === 0) return;
  useTasksStore.getState().applyMany(tasks, source);
  for (const id of new Set(tasks.map((t) => t.conversationId))) refreshNeedsInput(id);
}

/**
 * Loads (or reloads) a conversation from Go and merges it with whatever
 * events delivered meanwhile. Concurrent calls share one request; a call
 * made while one is in flight triggers one more load afterwards.
 */
export function loadConversation(id: string): Promise<void> {
  const t = tracker(id);
  if (t.promise) {
    t.again = true;
    return t.promise;
  }
  if (t.timer) {
    clearTimeout(t.timer);
    t.timer = null;
  }
  t.lastAt = Date.now();
  t.certain = false;
  useMessagesStore.getState().beginLoad(id);
  const run = async () => {
    try {
      const view = await api.loadConversation(id);
      if (trackers.get(id) !== t) return; // deleted meanwhile
      if (finishLoad(id, view)) t.again = true;
    } catch (err) {
      useMessagesStore.getState().failLoad(id);
      t.again = false;
      reportError(err, 'Could not load the conversation');
    } finally {
      t.promise = null;
    }
    if (trackers.get(id) !== t) return; // deleted meanwhile
    if (t.again) {
      t.again = false;
      requestReload(id);
    }
  };
  t.promise = run();
  return t.promise;
}

/** The conversation, its tasks and its usage as Go read them, into the stores. */
function applyViewState(id: string, view: ConversationView): void {
  if (view.conversation) useConversationsStore.getState().upsert(view.conversation);
  const tasks = [...(view.tasks ?? [])];
  if (view.activeTask) tasks.push(view.activeTask);
  applyTasks(tasks, 'snapshot');
  useUsageStore.getState().setBaseline(id, view);
}

/** Ends a load with the view Go read; true when events that came meanwhile make it stale. */
function finishLoad(id: string, view: ConversationView): boolean {
  applyViewState(id, view);
  return useMessagesStore.getState().finishLoad(id, view.messages ?? [], !!view.hasOlder).stale;
}

/**
 * Shows a conversation Go has already read (the first screen's) as
 * loadConversation would have loaded it.
 */
export function showLoaded(view: ConversationView): void {
  const id = view.conversation.id;
  tracker(id).lastAt = Date.now();
  useMessagesStore.getState().beginLoad(id);
  if (finishLoad(id, view)) requestReload(id);
}

/**
 * Shows a conversation as Go has just read it on another branch: its
 * window holds that view only (the other branch's messages leave it).
 */
export function showView(view: ConversationView): void {
  const id = view.conversation.id;
  applyViewState(id, view);
  const messages = [...(view.messages ?? []), ...heardSince(id, view)];
  useMessagesStore.getState().replaceWindow(id, { messages, hasOlder: !!view.hasOlder, hasNewer: false });
}

/**
 * The messages held that a view was read too early to have: written after
 * its last one by the task it shows at work, each the child of one it has
 * (a re-run's reply and its tool results, stored and heard while the
 * branch was being read). They stay in the window; the other branch's
 * leave it.
 */
function heardSince(id: string, view: ConversationView): Message[] {
  const held = useMessagesStore.getState().byConversation[id];
  const active = view.activeTask?.id;
  if (!held || !active) return [];
  const shown = new Set((view.messages ?? []).map((m) => m.id));
  const last = view.messages?.at(-1)?.seq ?? -Infinity;
  const heard: Message[] = [];
  for (const mid of held.ids) {
    const m = messageOf(held, mid);
    if (!m || m.seq <= last || m.taskId !== active || !shown.has(m.parentId ?? '')) continue;
    heard.push(m);
    shown.add(m.id);
  }
  return heard;
}

/** Asks for a reload, coalesced and throttled per conversation; soonest: not before this many ms. */
export function requestReload(id: string, soonest = 0): void {
  const t = tracker(id);
  useMessagesStore.getState().markStale(id);
  if (t.promise) {
    t.again = true;
    return;
  }
  if (soonest === 0) t.certain = true;
  if (t.timer) return;
  const wait = Math.max(soonest, t.lastAt + RELOAD_INTERVAL_MS - Date.now());
  if (wait <= 0) {
    void loadConversation(id);
    return;
  }
  t.timer = setTimeout(() => {
    t.timer = null;
    // Deltas that had only come early may have fitted meanwhile (receiveDelta).
    const c = useMessagesStore.getState().byConversation[id];
    if (t.certain || !c || c.stale) void loadConversation(id);
  }, wait);
}

/** What differs between reading the page before the window and the page after it. */
const SIDES = {
  older: {
    edge: (ids: readonly string[]) => ids[0],
    more: (c: ConversationMessages) => c.hasOlder && !c.loadingOlder,
    read: (id: string, edge: string, n: number) => api.getMessagesPage(id, edge, n),
    failed: 'Could not load earlier messages',
  },
  newer: {
    edge: (ids: readonly string[]) => ids[ids.length - 1],
    more: (c: ConversationMessages) => c.hasNewer && !c.loadingNewer,
    read: (id: string, edge: string, n: number) => api.getMessagesAfter(id, edge, n),
    failed: 'Could not load later messages',
  },
} as const;

/**
 * Loads the page of messages just before the first one held (older) or
 * just after the last (newer, when the window ends before the latest after
 * a jump far back), when such messages exist and no such page is being
 * read. A page that arrives after the window changed (a jump, a reload
 * from scratch) is dropped. Once a newer page reaches the latest, events
 * take over; one reload then catches any that arrived while it was read.
 */
async function loadPage(conversationId: string, side: 'older' | 'newer'): Promise<void> {
  const how = SIDES[side];
  const store = useMessagesStore.getState();
  const conv = store.byConversation[conversationId];
  const edge = conv && how.edge(conv.ids);
  if (!conv?.loaded || !how.more(conv) || !edge) return;
  store.beginPage(conversationId, side);
  try {
    const page = await how.read(conversationId, edge, MESSAGE_PAGE);
    const now = useMessagesStore.getState().byConversation[conversationId];
    if (!now || how.edge(now.ids) !== edge) {
      useMessagesStore.getState().failPage(conversationId, side);
      return;
    }
    useMessagesStore.getState().addPage(conversationId, page, side);
    if (side === 'newer' && !page.hasNewer) requestReload(conversationId);
  } catch (err) {
    useMessagesStore.getState().failPage(conversationId, side, true);
    reportError(err, how.failed);
  }
}

/** Loads the page of messages just before the first one held (see loadPage). */
export function loadOlder(conversationId: string): Promise<void> {
  return loadPage(conversationId, 'older');
}

/** Loads the page of messages just after the last one held (see loadPage). */
export function loadNewer(conversationId: string): Promise<void> {
  return loadPage(conversationId, 'newer');
}

/**
 * Shows a message however far back it is: when it is not held, the
 * messages around it replace the window (older and newer ones then load
 * as the person scrolls); the transcript then scrolls to it (focusId).
 * Resolves to false when it could not be found.
 */
export async function jumpToMessage(conversationId: string, messageId: string): Promise<boolean> {
  const conv = useMessagesStore.getState().byConversation[conversationId];
  if (conv && messageOf(conv, messageId)) {
    useMessagesStore.getState().setFocus(conversationId, messageId);
    return true;
  }
  try {
    const page = await api.getMessagesAround(conversationId, messageId, MESSAGE_PAGE);
    useMessagesStore.getState().replaceWindow(conversationId, page);
    useMessagesStore.getState().setFocus(conversationId, messageId);
    if (!page.hasNewer) requestReload(conversationId);
    return true;
  } catch (err) {
    reportError(err, 'Could not show that message');
    return false;
  }
}

/**
 * Shows a conversation's very first messages, however far back: they
 * replace the window (newer ones then load as the person scrolls down), as
 * a jump to a message does. How Home reaches the start at once.
 */
export async function showFirst(conversationId: string): Promise<void> {
  try {
    const page = await api.getMessagesAfter(conversationId, '', MESSAGE_PAGE);
    useMessagesStore.getState().replaceWindow(conversationId, page);
    if (!page.hasNewer) requestReload(conversationId);
  } catch (err) {
    reportError(err, 'Could not show the first messages');
  }
}

/** Back to the latest messages after a jump: the conversation is opened afresh. */
export function showLatest(conversationId: string): Promise<void> {
  const conv = useMessagesStore.getState().byConversation[conversationId];
  if (conv?.hasNewer) useMessagesStore.getState().remove(conversationId);
  return loadConversation(conversationId);
}

/** Forgets a deleted conversation everywhere. */
export function forgetConversation(id: string): void {
  const t = trackers.get(id);
  if (t?.timer) clearTimeout(t.timer);
  trackers.delete(id);
  useMessagesStore.getState().remove(id);
  useTasksStore.getState().removeConversation(id);
  useUsageStore.getState().remove(id);
  useConversationsStore.getState().remove(id);
}

// ---- event handlers ----

/** How long after a task ends its messages may still be catching up (ms). */
export const SETTLE_MS = 1500;

/**
 * Events and stored state must agree: once a task has ended, none of its
 * messages can still be streaming. If one still is here after a moment
 * (an event was lost), the conversation is reloaded from Go.
 */
function checkSettled(task: Task): void {
  setTimeout(() => {
    const conv = useMessagesStore.getState().byConversation[task.conversationId];
    if (!conv?.loaded) return;
    const open = conv.ids.some((id) => {
      const m = messageOf(conv, id);
      return m?.taskId === task.id && m.streaming;
    });
    if (open) requestReload(task.conversationId);
  }, SETTLE_MS);
}

// From a click on Stop until the task's end is shown, its reply stops
// growing in the window: the deltas still on their way (text Go stored
// before it heard of the Stop) are held rather than rendered, and so are
// the task's messages (the reply's end with its row's tools, the Stopped
// notice), which leaves the window free to show "Stopped" at once. They
// are applied in one go, in order, after that has been painted.

interface Held {
  deltas: MessageDeltaEvent[];
  /** The task's messages that came meanwhile (handleTaskMessage). */
  messages: TaskMessageEvent[];
}

/** What is held, per task being stopped. */
const held = new Map<string, Held>();

/** Stop was asked for: the task's deltas and messages are held until releaseStopping. */
export function holdStopping(taskId: string): void {
  if (!held.has(taskId)) held.set(taskId, { deltas: [], messages: [] });
}

/** Applies what was held for a task (the deltas, then the messages), and holds no more. */
function releaseStopping(taskId: string): void {
  const h = held.get(taskId);
  held.delete(taskId);
  if (!h) return;
  applyDeltas(h.deltas);
  h.messages.forEach(applyTaskMessage);
}

/** releaseStopping once the next frame is painted. */
export function releaseStoppingAfterPaint(taskId: string): void {
  if (held.has(taskId)) afterPaint(() => releaseStopping(taskId));
}

// Deltas come faster than frames (a fast model, a long reply): those that
// arrive between two frames are applied together, as one update of the
// store, when the next one starts, so the window renders a growing reply
// once a frame rather than once a delta, and an event that comes meanwhile
// (a Stop's cancelled task) finds the page free. Any other event of a task
// applies them first, so that it sees the text they carry.

/** Deltas received since the last frame, in order. */
const queued: MessageDeltaEvent[] = [];
let cancelFrame: (() => void) | null = null;

/** A delta from Go: applied at the next frame, with the others received until then. */
export function queueDelta(ev: MessageDeltaEvent): void {
  queued.push(ev);
  cancelFrame ??= nextFrame(flushDeltas);
}

/** Applies the deltas queued, in order, but those of a task being stopped (held). */
export function flushDeltas(): void {
  cancelFrame?.();
  cancelFrame = null;
  applyDeltas(queued.splice(0).filter((ev) => !hold(ev)));
}

export function handleTaskUpdate(task: Task): void {
  flushDeltas();
  applyTask(task, 'event');
  if (!isTerminal(task.status)) return;
  releaseStoppingAfterPaint(task.id);
  checkSettled(task);
}

/**
 * A message was stored. One whose stream ended comes without its text (the
 * deltas carried it): the copy held keeps its own, or, when it missed some,
 * the conversation is read again. A message of a task being stopped waits
 * with its deltas (holdStopping).
 */
export function handleTaskMessage(ev: TaskMessageEvent): void {
  flushDeltas();
  const h = held.get(ev.taskId);
  if (h) h.messages.push(ev);
  else applyTaskMessage(ev);
}

function applyTaskMessage(ev: TaskMessageEvent): void {
  const m = ev.message;
  const conversationId = ev.conversationId || m.conversationId;
  const message = m.conversationId ? m : { ...m, conversationId };
  const store = useMessagesStore.getState();
  if (!ev.streamed) store.upsert(message);
  else if (store.endStream(conversationId, { message, contentBytes: ev.contentBytes ?? 0, reasoningBytes: ev.reasoningBytes ?? 0 }) === 'mismatch') {
    requestReload(conversationId);
  }
  useConversationsStore.getState().noteMessage(conversationId, message);
}

/** Holds the delta if its task is being stopped (holdStopping); true if it did. */
function hold(ev: MessageDeltaEvent): boolean {
  const h = held.get(ev.taskId);
  h?.deltas.push(ev);
  return !!h;
}

/** Applies deltas, in one update of the store; conversations they do not fit are read again. */
function applyDeltas(deltas: readonly MessageDeltaEvent[]): void {
  if (deltas.length === 0) return;
  for (const id of useMessagesStore.getState().applyDeltas(inStoredOrder(deltas))) requestReload(id, EARLY_WAIT_MS);
}

/**
 * Deltas in the order Go stored them: each message's by rev. The dev
 * build's transport (Wails' dev server writes each event from a goroutine
 * of its own) delivers some out of order; in Go's order they fit, where
 * one that came early did not and had the whole conversation read again.
 */
function inStoredOrder(deltas: readonly MessageDeltaEvent[]): readonly MessageDeltaEvent[] {
  if (deltas.length < 2) return deltas;
  // Messages keep the order of their first deltas (the sort is stable).
  const first = new Map<string, number>();
  deltas.forEach((d, i) => first.has(d.messageId) || first.set(d.messageId, i));
  const at = (d: MessageDeltaEvent) => first.get(d.messageId)!;
  return [...deltas].sort((a, b) => at(a) - at(b) || a.rev - b.rev);
}

export function handleConversationUpdated(c: Conversation): void {
  useConversationsStore.getState().upsert(c);
}

// ---- facts, MCP servers, files a task changed ----
// Held while a view shows them: a view watches its key (read from Go when
// it appears), events keep what is held up to date, and the last view to go
// lets it go (the next one reads it afresh).

const watchers = new Map<string, number>();

function watch(key: string, load: () => void, forget: () => void): Unsubscribe {
  const n = watchers.get(key) ?? 0;
  watchers.set(key, n + 1);
  // A second watcher shares the first one's read, which events keep current.
  if (n === 0) load();
  return () => {
    const n = (watchers.get(key) ?? 1) - 1;
    if (n > 0) {
      watchers.set(key, n);
      return;
    }
    watchers.delete(key);
    forget();
  };
}

/** The latest read of each key, so that an older answer never overwrites a newer one. */
const reads = new Map<string, number>();

async function readLatest<T>(key: string, read: () => Promise<T>, done: (v: T) => void, failed: (err: unknown) => void) {
  const n = (reads.get(key) ?? 0) + 1;
  reads.set(key, n);
  try {
    const v = await read();
    if (reads.get(key) === n) done(v);
  } catch (err) {
    if (reads.get(key) === n) failed(err);
  }
}

/**
 * Reads a conversation's facts and the global ones (conversationId null: the
 * global ones alone; ALL_FACTS: every fact, with the conversations' titles).
 */
export function loadFacts(conversationId: string | null): Promise<void> {
  const key = conversationId ?? '';
  const store = useFactsStore.getState();
  if (key === ALL_FACTS) {
    return readLatest(
      `facts:${key}`,
      () => Promise.resolve().then(() => api.listAllFacts()),
      (all) => store.setList(key, all.facts, all.titles),
      (err) => store.fail(key, err),
    );
  }
  return readLatest(
    `facts:${key}`,
    () => Promise.resolve().then(() => api.listFacts(key)),
    (list) => store.setList(key, list),
    (err) => store.fail(key, err),
  );
}

/** Holds the facts a memory view shows while it shows them. */
export function watchFacts(conversationId: string | null): Unsubscribe {
  const key = conversationId ?? '';
  return watch(
    `facts:${key}`,
    () => void loadFacts(conversationId),
    () => useFactsStore.getState().forget(key),
  );
}

/** Facts changed (by the agent or the person): the views they concern read them again. */
export function handleFactsChanged(ev: FactsChangedEvent): void {
  for (const watched of watchers.keys()) {
    if (!watched.startsWith('facts:')) continue;
    const key = watched.slice('facts:'.length);
    if (ev.conversationId === '' || ev.conversationId === key || key === ALL_FACTS) void loadFacts(key || null);
  }
}

/** Lists the MCP servers with their status and tools. */
export function loadMcpServers(): Promise<void> {
  const store = useMcpServersStore.getState();
  return readLatest(
    'mcp',
    () => api.listMCPServers(),
    (list) => store.setAll(list),
    (err) => store.fail(`Could not list the MCP servers: ${toApiError(err).message}`),
  );
}

/** Holds the MCP servers while the settings show them. */
export function watchMcpServers(): Unsubscribe {
  return watch(
    'mcp',
    () => void loadMcpServers(),
    () => useMcpServersStore.getState().reset(),
  );
}

export function handleMCPServer(state: MCPServerState): void {
  useMcpServersStore.getState().update(state);
}

/** Holds the files a task changed while a card shows them. */
export function watchFilesChanged(taskId: string): Unsubscribe {
  const store = useFilesChangedStore.getState();
  return watch(
    `files:${taskId}`,
    () => {
      store.ensure(taskId);
      void readLatest(
        `files:${taskId}`,
        () => api.filesChanged(taskId),
        (c) => store.apply(c),
        (err) => store.fail(taskId, toApiError(err).message),
      );
    },
    () => store.forget(taskId),
  );
}

/** A task's changes were undone or redone: the payload is what is stored now. */
export function applyFilesChanged(changed: FilesChanged): void {
  useFilesChangedStore.getState().apply(changed);
}

/** Subscribes the stores to Go's events. */
export function startSync(): Unsubscribe {
  const offs = [
    subscribeAll({
      onTaskUpdate: handleTaskUpdate,
      onTaskMessage: handleTaskMessage,
      onMessageDelta: queueDelta,
      onConversationUpdated: handleConversationUpdated,
      onToolOutput: handleToolOutput,
    }),
    onFactsChanged(handleFactsChanged),
    onMCPServer(handleMCPServer),
    onFilesChanged(applyFilesChanged),
  ];
  return () => offs.forEach((off) => off());
}

/** For tests: forget load bookkeeping. */
export function resetSync(): void {
  for (const t of trackers.values()) if (t.timer) clearTimeout(t.timer);
  trackers.clear();
  held.clear();
  cancelFrame?.();
  cancelFrame = null;
  queued.length = 0;
  watchers.clear();
  reads.clear();
}

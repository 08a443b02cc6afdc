// Pure functions over one conversation's messages. The zustand store in
// messages.ts only wraps these, so they are unit-tested directly.
import type { Message, MessageDeltaEvent, MessagePage } from '../api/types';
import { grow, type Grown } from '../lib/grownText';
import { utf8Length } from '../lib/utf8';

/** A message plus the UTF-8 byte lengths of its content and its reasoning (Go's offsets). */
export interface StoredMessage extends Message {
  contentBytes: number;
  reasoningBytes: number;
  /** While its content grows by deltas: what each appended (the transcript renders only that). */
  grown?: Grown;
}

export interface ConversationMessages {
  /** Message ids ordered by seq. */
  ids: string[];
  /** The messages as last stored; `live` may hold newer copies (read through messageOf). */
  byId: Record<string, StoredMessage>;
  /**
   * Messages that grew by deltas since they were put in byId: a delta
   * copies this small record rather than byId, which holds every message of
   * the conversation. The next upsert of a message moves it back to byId.
   */
  live: Record<string, StoredMessage>;
  /** True once a LoadConversation snapshot has been merged. */
  loaded: boolean;
  /** A LoadConversation call is in flight. */
  loading: boolean;
  /** The messages are known to be out of date; a reload has been asked for. */
  stale: boolean;
  /** Deltas that could not be applied while a load was in flight. */
  pendingDeltas: MessageDeltaEvent[];
  /**
   * The messages held are a window of the conversation: hasOlder, messages
   * exist before the first (a page of them is loaded on scrolling up);
   * hasNewer, after the last (after a jump far back). A message outside the
   * window is not taken from an event: it comes with its page, read from
   * Go after it was stored.
   */
  hasOlder: boolean;
  hasNewer: boolean;
  /** A page of older (newer) messages is being read. */
  loadingOlder: boolean;
  loadingNewer: boolean;
  /** The last page asked for could not be read: it is not asked for again until the person does. */
  pageFailed: boolean;
  /** A message to bring into view (a jump), until the view has. */
  focusId: string | null;
  /** How many times the person asked for the latest (each message they sent): the view follows it again. */
  latestAsked: number;
}

export function emptyConversationMessages(): ConversationMessages {
  return {
    ids: [],
    byId: {},
    live: {},
    loaded: false,
    loading: false,
    stale: false,
    pendingDeltas: [],
    hasOlder: false,
    hasNewer: false,
    loadingOlder: false,
    loadingNewer: false,
    pageFailed: false,
    focusId: null,
    latestAsked: 0,
  };
}

/** Asks the view to bring a message into view (null: done). */
export function setFocus(state: ConversationMessages, id: string | null): ConversationMessages {
  return state.focusId === id ? state : { ...state, focusId: id };
}

/** The person asked for the latest (they sent a message): the view goes back to it and follows it. */
export function askLatest(state: ConversationMessages): ConversationMessages {
  return { ...state, latestAsked: state.latestAsked + 1 };
}

function seqAt(state: ConversationMessages, i: number): number | undefined {
  const id = state.ids[i < 0 ? state.ids.length + i : i];
  return id === undefined ? undefined : state.byId[id]?.seq;
}

/** Whether a message with this seq falls outside the window held (see hasOlder). */
export function outsideWindow(state: ConversationMessages, seq: number): boolean {
  if (state.ids.length === 0) return false;
  if (state.hasOlder && seq < (seqAt(state, 0) ?? -Infinity)) return true;
  return state.hasNewer && seq > (seqAt(state, -1) ?? Infinity);
}

/** The newest copy of a message: the streamed one, else the stored one. */
export function messageOf(state: ConversationMessages, id: string): StoredMessage | undefined {
  return state.live[id] ?? state.byId[id];
}

/** The tool result for each call id, per byId object (results are never streamed, so never in live). */
const resultIndex = new WeakMap<Record<string, StoredMessage>, Map<string, string>>();

/** The stored result of a tool call, if the window holds it. */
/** The newest of the person's messages held ('' when none is). */
export function lastUserMessageId(state: ConversationMessages | undefined): string {
  if (!state) return '';
  for (let i = state.ids.length - 1; i >= 0; i--) {
    const id = state.ids[i]!;
    if (messageOf(state, id)?.role === 'user') return id;
  }
  return '';
}

export function resultOf(state: ConversationMessages, callId: string): StoredMessage | undefined {
  let index = resultIndex.get(state.byId);
  if (!index) {
    index = new Map();
    for (const m of Object.values(state.byId)) {
      if (m.role === 'tool' && m.toolCallId) index.set(m.toolCallId, m.id);
    }
    resultIndex.set(state.byId, index);
  }
  const id = index.get(callId);
  return id === undefined ? undefined : state.byId[id];
}

/** live without these ids (the same object when it has none of them). */
function withoutLive(live: Record<string, StoredMessage>, ids: readonly string[]): Record<string, StoredMessage> {
  const drop = ids.filter((id) => id in live);
  if (drop.length === 0) return live;
  const next = { ...live };
  for (const id of drop) delete next[id];
  return next;
}

function store(m: Message): StoredMessage {
  const content = typeof m.content === 'string' ? m.content : '';
  const reasoning = typeof m.reasoning === 'string' ? m.reasoning : '';
  return { ...m, content, contentBytes: utf8Length(content), reasoningBytes: utf8Length(reasoning) };
}

/** Index at which a message with this seq goes (after equal seqs). */
function insertionIndex(state: ConversationMessages, seq: number): number {
  let lo = 0;
  let hi = state.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const other = state.byId[state.ids[mid]!];
    if (other && other.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Inserts or replaces a message. An existing message is replaced only by a
 * strictly higher rev, so replays and stale snapshots never go backwards.
 */
export function upsertMessage(state: ConversationMessages, msg: Message): ConversationMessages {
  const existing = messageOf(state, msg.id);
  if (existing && existing.rev >= msg.rev) return state;
  if (!existing && outsideWindow(state, msg.seq)) return state;
  const next = store(msg);
  const byId = { ...state.byId, [msg.id]: next };
  let ids = state.ids;
  if (!existing) {
    const at = insertionIndex(state, next.seq);
    ids = [...state.ids.slice(0, at), msg.id, ...state.ids.slice(at)];
  } else if (existing.seq !== next.seq) {
    const without = state.ids.filter((id) => id !== msg.id);
    const tmp = { ...state, ids: without, byId };
    const at = insertionIndex(tmp, next.seq);
    ids = [...without.slice(0, at), msg.id, ...without.slice(at)];
  }
  return { ...state, ids, byId, live: withoutLive(state.live, [msg.id]) };
}

/**
 * Upserts many messages at once (a LoadConversation snapshot) with the
 * same rules as upsertMessage, in O(n log n): one copy of byId and one
 * stable sort, rather than a copy per message, so that opening a
 * conversation of 10,000 messages stays quick.
 */
export function upsertMessages(
  state: ConversationMessages,
  msgs: readonly Message[],
  keepWindow = true,
): ConversationMessages {
  if (keepWindow && msgs.length <= 1) return msgs[0] ? upsertMessage(state, msgs[0]) : state;
  let byId: Record<string, StoredMessage> | null = null;
  const added: string[] = [];
  let moved = false;
  const replaced = new Set<string>();
  for (const msg of msgs) {
    // Once replaced in this pass, byId holds the newest copy; before, live may.
    const existing = replaced.has(msg.id) ? byId?.[msg.id] : messageOf(state, msg.id);
    if (existing && existing.rev >= msg.rev) continue;
    if (!existing && keepWindow && outsideWindow(state, msg.seq)) continue;
    if (!byId) byId = { ...state.byId };
    const next = store(msg);
    byId[msg.id] = next;
    replaced.add(msg.id);
    if (!existing) added.push(msg.id);
    else if (existing.seq !== next.seq) moved = true;
  }
  if (!byId) return state;
  let ids = state.ids;
  if (added.length > 0 || moved) {
    const all = added.length > 0 ? [...state.ids, ...added] : [...state.ids];
    const final = byId;
    // Array.prototype.sort is stable: equal seqs keep existing-before-new.
    all.sort((a, b) => (final[a]?.seq ?? 0) - (final[b]?.seq ?? 0));
    ids = all;
  }
  return { ...state, ids, byId, live: withoutLive(state.live, [...replaced]) };
}

export type DeltaOutcome = 'applied' | 'ignored' | 'mismatch';

/** The message with a delta's text appended: to its reasoning (a thinking delta) or its content. */
function appended(m: StoredMessage, delta: MessageDeltaEvent, rev: number): StoredMessage {
  const bytes = utf8Length(delta.text);
  return delta.reasoning
    ? { ...m, reasoning: (m.reasoning ?? '') + delta.text, reasoningBytes: m.reasoningBytes + bytes, rev }
    : {
        ...m,
        content: m.content + delta.text,
        contentBytes: m.contentBytes + bytes,
        grown: grow(m.grown, m.content.length + delta.text.length, delta.text),
        rev,
      };
}

/**
 * Appends streamed text to a message's content, or, when the delta is
 * reasoning, to its reasoning. Offsets are in UTF-8 bytes of that text.
 * Outcomes:
 * - applied: our text was exactly `offset` bytes long; the delta appended.
 * - ignored: the delta is already part of what we have (a newer rev, or a
 *   snapshot that already contains it).
 * - mismatch: the message is unknown or our text does not line up; the
 *   caller must reload the conversation instead of guessing.
 */
export function applyDelta(
  state: ConversationMessages,
  delta: MessageDeltaEvent,
): { state: ConversationMessages; outcome: DeltaOutcome } {
  const m = messageOf(state, delta.messageId);
  // Past the window's end, a stream is read with the newer pages.
  if (!m) return { state, outcome: state.hasNewer ? 'ignored' : 'mismatch' };
  const rev = typeof delta.rev === 'number' ? delta.rev : m.rev + 1;
  if (rev < m.rev) return { state, outcome: 'ignored' };
  const have = delta.reasoning ? m.reasoningBytes : m.contentBytes;
  if (delta.offset === have) {
    if (delta.text === '') return { state, outcome: 'ignored' };
    const next = appended(m, delta, Math.max(m.rev, rev));
    return { state: { ...state, live: { ...state.live, [m.id]: next } }, outcome: 'applied' };
  }
  const end = delta.offset + utf8Length(delta.text);
  if (rev <= m.rev && end <= have) return { state, outcome: 'ignored' };
  return { state, outcome: 'mismatch' };
}

/** A stream's end as Go sends it: the message without its text, and the lengths of its text in bytes. */
export interface StreamEnd {
  message: Message;
  contentBytes: number;
  reasoningBytes: number;
}

/**
 * A stream ended (Stop, or its task's end): Go sends the message without
 * its text, which the deltas carried. The copy held keeps its text (the
 * same strings: nothing is measured, parsed or split again) and takes the
 * rest. Outcomes as applyDelta's: mismatch when the copy held lacks some
 * of the text (the caller reloads it; until then it stays as it is).
 */
export function endStream(state: ConversationMessages, end: StreamEnd): { state: ConversationMessages; outcome: DeltaOutcome } {
  const msg = end.message;
  const held = messageOf(state, msg.id);
  if (!held) return { state, outcome: outsideWindow(state, msg.seq) ? 'ignored' : 'mismatch' };
  if (held.rev >= msg.rev) return { state, outcome: 'ignored' };
  if (held.contentBytes !== end.contentBytes || held.reasoningBytes !== end.reasoningBytes) return { state, outcome: 'mismatch' };
  const next: StoredMessage = {
    ...msg,
    content: held.content,
    reasoning: held.reasoning,
    contentBytes: held.contentBytes,
    reasoningBytes: held.reasoningBytes,
  };
  return {
    state: { ...state, byId: { ...state.byId, [msg.id]: next }, live: withoutLive(state.live, [msg.id]) },
    outcome: 'applied',
  };
}

export function beginLoad(state: ConversationMessages): ConversationMessages {
  return { ...state, loading: true };
}

/**
 * Merges a LoadConversation snapshot into what events already delivered
 * (by rev, so nothing is lost or doubled), then replays the deltas that
 * arrived while loading. `stale` is true when some of them still do not fit.
 */
export function finishLoad(
  state: ConversationMessages,
  snapshot: readonly Message[],
  hasOlder = false,
): ConversationMessages {
  let s = state;
  const first = snapshot[0];
  if (state.ids.length === 0) {
    s = { ...state, hasOlder, hasNewer: false };
  } else if (hasOlder && first && !state.hasNewer && first.seq > (seqAt(state, -1) ?? Infinity)) {
    // The latest page does not reach what we hold: messages between were
    // missed. Start again from the page.
    s = { ...state, ids: [], byId: {}, live: {}, hasOlder: true };
  }
  s = upsertMessages(s, snapshot);
  let stale = false;
  for (const d of state.pendingDeltas) {
    const r = applyDelta(s, d);
    s = r.state;
    if (r.outcome === 'mismatch') stale = true;
  }
  return { ...s, loaded: true, loading: false, stale, pendingDeltas: [] };
}

export function failLoad(state: ConversationMessages): ConversationMessages {
  return { ...state, loading: false };
}

/** Marks a page of older (or newer) messages as being read. */
export function beginPage(state: ConversationMessages, side: 'older' | 'newer'): ConversationMessages {
  return side === 'older' ? { ...state, loadingOlder: true } : { ...state, loadingNewer: true };
}

/** The page was not read (failed: because of an error, not because the window moved on): nothing changes but the flags. */
export function failPage(state: ConversationMessages, side: 'older' | 'newer', failed = false): ConversationMessages {
  const s = { ...state, pageFailed: failed };
  return side === 'older' ? { ...s, loadingOlder: false } : { ...s, loadingNewer: false };
}

/**
 * Adds a page of older (or newer) messages at the window's edge, by rev
 * like any snapshot, and moves the edge: the page tells whether more
 * exist beyond it.
 */
export function addPage(state: ConversationMessages, page: MessagePage, side: 'older' | 'newer'): ConversationMessages {
  const s = { ...upsertMessages(state, page.messages, false), pageFailed: false };
  return side === 'older'
    ? { ...s, hasOlder: page.hasOlder, loadingOlder: false }
    : { ...s, hasNewer: page.hasNewer, loadingNewer: false };
}

/** Holds only this page: a jump to a message far back. */
export function replaceWindow(state: ConversationMessages, page: MessagePage): ConversationMessages {
  const base: ConversationMessages = {
    ...state,
    ids: [],
    byId: {},
    live: {},
    hasOlder: page.hasOlder,
    hasNewer: page.hasNewer,
    loadingOlder: false,
    loadingNewer: false,
    pageFailed: false,
  };
  return { ...upsertMessages(base, page.messages, false), loaded: true, stale: false };
}

export function bufferDelta(state: ConversationMessages, delta: MessageDeltaEvent): ConversationMessages {
  return { ...state, pendingDeltas: [...state.pendingDeltas, delta] };
}

/**
 * A delta as an event brings it: applied (applyDelta); one that does not
 * fit is kept while a load is in flight (replayed after its snapshot:
 * 'buffered'), else the messages are marked stale ('mismatch': the caller
 * reloads them) and it is kept too: it may only have come early (a
 * transport that reorders events), and once the deltas before it arrive it
 * fits, and the messages are up to date again (healEarly).
 */
export function receiveDelta(
  state: ConversationMessages,
  delta: MessageDeltaEvent,
): { state: ConversationMessages; outcome: DeltaOutcome | 'buffered' } {
  const r = applyDelta(state, delta);
  if (r.outcome === 'applied') return { state: healEarly(r.state), outcome: 'applied' };
  if (r.outcome !== 'mismatch') return r;
  if (state.loading) return { state: bufferDelta(state, delta), outcome: 'buffered' };
  return { state: markStale(bufferDelta(state, delta)), outcome: 'mismatch' };
}

/** Stale only because deltas came early: once all of them fit (by rev), they are applied, and it is stale no more. */
function healEarly(state: ConversationMessages): ConversationMessages {
  if (!state.stale || state.loading || state.pendingDeltas.length === 0) return state;
  let s = state;
  for (const d of [...state.pendingDeltas].sort((a, b) => a.rev - b.rev)) {
    const r = applyDelta(s, d);
    if (r.outcome === 'mismatch') return state;
    s = r.state;
  }
  return { ...s, stale: false, pendingDeltas: [] };
}

export function markStale(state: ConversationMessages): ConversationMessages {
  return state.stale ? state : { ...state, stale: true };
}

/** Messages in seq order. */
export function orderedMessages(state: ConversationMessages): StoredMessage[] {
  const out: StoredMessage[] = [];
  for (const id of state.ids) {
    const m = messageOf(state, id);
    if (m) out.push(m);
  }
  return out;
}

// Pure functions over the sidebar's conversations.
import type { Conversation, ConversationSummary, Message } from '../api/types';
import { timeValue } from '../lib/time';

/** A conversation as the sidebar keeps it. */
export type ConversationEntry = Conversation;

export interface ConversationsState {
  byId: Record<string, ConversationEntry>;
  /** Ids ordered by last activity, newest first. */
  order: string[];
  /** Last activity per conversation in ms: max(updatedAt, newest message). */
  activity: Record<string, number>;
  selectedId: string | null;
  /** Messages that arrived while the conversation was not open. */
  unread: Record<string, number>;
  /** Message ids already counted in `unread`, so updates of one message count once. */
  unreadIds: Record<string, Record<string, true>>;
  /** The conversation's active task is waiting for the user's answer. */
  needsInput: Record<string, boolean>;
}

export function emptyConversationsState(): ConversationsState {
  return { byId: {}, order: [], activity: {}, selectedId: null, unread: {}, unreadIds: {}, needsInput: {} };
}

function sortOrder(byId: Record<string, ConversationEntry>, activity: Record<string, number>): string[] {
  return Object.keys(byId).sort((a, b) => {
    const d = (activity[b] ?? 0) - (activity[a] ?? 0);
    if (d !== 0) return d;
    const c = timeValue(byId[b]?.createdAt) - timeValue(byId[a]?.createdAt);
    if (c !== 0) return c;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

function sameOrder(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function withOrder(state: ConversationsState, byId: Record<string, ConversationEntry>, activity: Record<string, number>): ConversationsState {
  const order = sortOrder(byId, activity);
  return { ...state, byId, activity, order: sameOrder(order, state.order) ? state.order : order };
}

function entryOf(c: ConversationUpdate, prev: ConversationEntry | undefined): ConversationEntry {
  return {
    id: c.id,
    title: c.title ?? '',
    titleSet: !!c.titleSet,
    mode: c.mode ?? 'auto',
    workspace: c.workspace ?? prev?.workspace ?? '',
    model: c.model ?? prev?.model,
    agentId: c.agentId ?? prev?.agentId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    state: c.state ?? prev?.state ?? 'active',
    endedBy: c.endedBy,
    endReason: c.endReason,
    archived: !!c.archived,
  };
}

/** A conversation as an update carries it: one without workspace keeps the known folder. */
export type ConversationUpdate = Omit<Conversation, 'workspace'> & { workspace?: string };

/** Adds or updates a conversation (an event or a call's result). */
export function upsertConversation(state: ConversationsState, c: ConversationUpdate): ConversationsState {
  const byId = { ...state.byId, [c.id]: entryOf(c, state.byId[c.id]) };
  const act = Math.max(state.activity[c.id] ?? 0, timeValue(c.updatedAt));
  const activity = state.activity[c.id] === act ? state.activity : { ...state.activity, [c.id]: act };
  return withOrder(state, byId, activity);
}

/** Replaces the list with ListConversations' answer, keeping local flags. */
export function setConversations(state: ConversationsState, list: readonly ConversationSummary[]): ConversationsState {
  // One pass and one sort: the list may hold thousands of conversations.
  const byId: Record<string, ConversationEntry> = {};
  const activity: Record<string, number> = {};
  for (const c of list) {
    byId[c.id] = entryOf(c, byId[c.id]);
    const act = Math.max(activity[c.id] ?? 0, timeValue(c.updatedAt));
    const known = state.activity[c.id];
    activity[c.id] = known !== undefined && known > act ? known : act;
  }
  // Keep conversations created or announced while the list call was in flight.
  for (const [id, c] of Object.entries(state.byId)) {
    if (!byId[id]) {
      byId[id] = entryOf(c, undefined);
      activity[id] = timeValue(c.updatedAt);
    }
  }
  return withOrder(state, byId, activity);
}

/**
 * Adds a page of the list to what is known, keeping what events said since
 * (a newer activity, local flags): one pass and one sort.
 */
export function addConversations(state: ConversationsState, list: readonly ConversationSummary[]): ConversationsState {
  if (list.length === 0) return state;
  const byId = { ...state.byId };
  const activity = { ...state.activity };
  for (const c of list) {
    byId[c.id] = entryOf(c, byId[c.id]);
    activity[c.id] = Math.max(activity[c.id] ?? 0, timeValue(c.updatedAt));
  }
  return withOrder(state, byId, activity);
}

/**
 * The conversations the list shows: those known down to the last one its
 * pages reached (boundary, an activity time; -Infinity once every page is
 * in). A conversation known beyond it (found by a search) waits for its page.
 */
export function listedOrder(state: Pick<ConversationsState, 'order' | 'activity'>, boundary: number): string[] {
  if (boundary === -Infinity) return state.order;
  const end = state.order.findIndex((id) => (state.activity[id] ?? 0) < boundary);
  return end < 0 ? state.order : state.order.slice(0, end);
}

export function removeConversation(state: ConversationsState, id: string): ConversationsState {
  const byId = { ...state.byId };
  delete byId[id];
  const activity = { ...state.activity };
  delete activity[id];
  const unread = { ...state.unread };
  delete unread[id];
  const unreadIds = { ...state.unreadIds };
  delete unreadIds[id];
  const needsInput = { ...state.needsInput };
  delete needsInput[id];
  return {
    ...withOrder(state, byId, activity),
    unread,
    unreadIds,
    needsInput,
    selectedId: state.selectedId === id ? null : state.selectedId,
  };
}

/** Opens a conversation: it becomes selected and its unread count clears. */
export function selectConversation(state: ConversationsState, id: string | null): ConversationsState {
  if (id === null) return { ...state, selectedId: null };
  const unread = { ...state.unread };
  delete unread[id];
  const unreadIds = { ...state.unreadIds };
  delete unreadIds[id];
  return { ...state, selectedId: id, unread, unreadIds };
}

/** Whether a message counts as something new for the user to read. */
export function countsAsUnread(m: Message): boolean {
  return m.role === 'assistant' || m.role === 'system';
}

/**
 * A message was stored in a conversation: bumps its activity and, when the
 * conversation is not open, its unread count (once per message id).
 */
export function noteMessage(state: ConversationsState, conversationId: string, m: Message): ConversationsState {
  let s = state;
  const t = timeValue(m.createdAt);
  if (s.byId[conversationId] && t > (s.activity[conversationId] ?? 0)) {
    s = withOrder(s, s.byId, { ...s.activity, [conversationId]: t });
  }
  if (conversationId !== s.selectedId && countsAsUnread(m)) {
    const seen = s.unreadIds[conversationId];
    if (!seen?.[m.id]) {
      s = {
        ...s,
        unread: { ...s.unread, [conversationId]: (s.unread[conversationId] ?? 0) + 1 },
        unreadIds: { ...s.unreadIds, [conversationId]: { ...seen, [m.id]: true } },
      };
    }
  }
  return s;
}

export function setNeedsInput(state: ConversationsState, conversationId: string, on: boolean): ConversationsState {
  if (!!state.needsInput[conversationId] === on) return state;
  const needsInput = { ...state.needsInput };
  if (on) needsInput[conversationId] = true;
  else delete needsInput[conversationId];
  return { ...state, needsInput };
}

/** Local optimistic change of a field (agent mode, title). */
export function patchConversation(state: ConversationsState, id: string, patch: Partial<ConversationEntry>): ConversationsState {
  const prev = state.byId[id];
  if (!prev) return state;
  return { ...state, byId: { ...state.byId, [id]: { ...prev, ...patch } } };
}

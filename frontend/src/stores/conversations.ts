import { create } from 'zustand';
import type { Conversation, ConversationSummary, Message } from '../api/types';
import { timeValue } from '../lib/time';
import * as R from './conversationsReducer';
import type { ConversationEntry, ConversationsState } from './conversationsReducer';

/** A title search and the pages of it read so far. */
export interface ConversationSearch {
  /** Only this agent's conversations ('' or absent: every agent's). */
  agent?: string;
  /** The Archived view: archived conversations instead of the list's. */
  archived?: boolean;
  query: string;
  /** The matches, in the list's order. */
  ids: string[];
  /** Continues the search; '' when every match is in. */
  cursor: string;
  loading: boolean;
  /** Its last page could not be read: it is not asked for again until the person does. */
  failed?: boolean;
}

export interface ConversationsStore extends ConversationsState {
  /** False until the first ListConversations answer. */
  listed: boolean;
  /** Continues the list after its last page; '' when every conversation is in. */
  listCursor: string;
  /** The activity of the last conversation the pages reached (-Infinity: all). */
  listBoundary: number;
  /** A further page of the list is being read. */
  listLoading: boolean;
  /** The last page could not be read: it is not asked for again until the person does. */
  listFailed: boolean;
  /** The search the sidebar shows instead of the list; null when none. */
  search: ConversationSearch | null;
  /** Replaces the list with its first page; nextCursor continues it. */
  setAll: (list: readonly ConversationSummary[], nextCursor?: string) => void;
  /** Adds a further page of the list. */
  addListPage: (list: readonly ConversationSummary[], nextCursor: string) => void;
  setListLoading: (on: boolean) => void;
  setListFailed: (on: boolean) => void;
  /** Sets (or with null, ends) the search. */
  setSearch: (search: ConversationSearch | null) => void;
  upsert: (c: Conversation | ConversationSummary) => void;
  patch: (id: string, patch: Partial<ConversationEntry>) => void;
  remove: (id: string) => void;
  select: (id: string | null) => void;
  noteMessage: (conversationId: string, m: Message) => void;
  setNeedsInput: (conversationId: string, on: boolean) => void;
  reset: () => void;
}

function pick(s: ConversationsStore): ConversationsState {
  return {
    byId: s.byId,
    order: s.order,
    activity: s.activity,
    selectedId: s.selectedId,
    unread: s.unread,
    unreadIds: s.unreadIds,
    needsInput: s.needsInput,
  };
}

/** Where a list that continues after list ends: its last conversation's activity. */
function boundaryOf(list: readonly ConversationSummary[], nextCursor: string): number {
  const last = list[list.length - 1];
  return nextCursor && last ? timeValue(last.updatedAt) : -Infinity;
}

const emptyList = {
  listed: false,
  listCursor: '',
  listBoundary: -Infinity,
  listLoading: false,
  listFailed: false,
  search: null,
};

export const useConversationsStore = create<ConversationsStore>()((set) => ({
  ...R.emptyConversationsState(),
  ...emptyList,
  setAll: (list, nextCursor = '') =>
    set((s) => ({
      ...R.setConversations(pick(s), list),
      listed: true,
      listCursor: nextCursor,
      listBoundary: boundaryOf(list, nextCursor),
    })),
  addListPage: (list, nextCursor) =>
    set((s) => ({
      ...R.addConversations(pick(s), list),
      listCursor: nextCursor,
      listBoundary: boundaryOf(list, nextCursor),
      listLoading: false,
      listFailed: false,
    })),
  setListLoading: (on) => set({ listLoading: on }),
  setListFailed: (on) => set({ listFailed: on }),
  setSearch: (search) => set({ search }),
  upsert: (c) => set((s) => R.upsertConversation(pick(s), c)),
  patch: (id, p) => set((s) => R.patchConversation(pick(s), id, p)),
  remove: (id) => set((s) => R.removeConversation(pick(s), id)),
  select: (id) => set((s) => R.selectConversation(pick(s), id)),
  noteMessage: (cid, m) => set((s) => R.noteMessage(pick(s), cid, m)),
  setNeedsInput: (cid, on) => set((s) => R.setNeedsInput(pick(s), cid, on)),
  reset: () => set({ ...R.emptyConversationsState(), ...emptyList }),
}));

import { create } from 'zustand';
import type { Conversation, ConversationSummary, Message } from '../api/types';
import * as R from './conversationsReducer';
import type { ConversationEntry, ConversationsState } from './conversationsReducer';

export interface ConversationsStore extends ConversationsState {
  /** False until the first ListConversations answer. */
  listed: boolean;
  setAll: (list: readonly ConversationSummary[]) => void;
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

export const useConversationsStore = create<ConversationsStore>()((set) => ({
  ...R.emptyConversationsState(),
  listed: false,
  setAll: (list) => set((s) => ({ ...R.setConversations(pick(s), list), listed: true })),
  upsert: (c) => set((s) => R.upsertConversation(pick(s), c)),
  patch: (id, p) => set((s) => R.patchConversation(pick(s), id, p)),
  remove: (id) => set((s) => R.removeConversation(pick(s), id)),
  select: (id) => set((s) => R.selectConversation(pick(s), id)),
  noteMessage: (cid, m) => set((s) => R.noteMessage(pick(s), cid, m)),
  setNeedsInput: (cid, on) => set((s) => R.setNeedsInput(pick(s), cid, on)),
  reset: () => set({ ...R.emptyConversationsState(), listed: false }),
}));

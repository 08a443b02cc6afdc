import { create } from 'zustand';
import type { Message, MessageDeltaEvent, MessagePage } from '../api/types';
import * as R from './messagesReducer';
import type { ConversationMessages, DeltaOutcome } from './messagesReducer';

export interface MessagesStore {
  /** Messages of every conversation loaded so far, by conversation id. */
  byConversation: Record<string, ConversationMessages>;
  /** Starts tracking a conversation (no-op if tracked). */
  ensure: (conversationId: string) => void;
  beginLoad: (conversationId: string) => void;
  /** Merges a snapshot of the latest messages; hasOlder: earlier ones exist. */
  finishLoad: (conversationId: string, snapshot: readonly Message[], hasOlder?: boolean) => { stale: boolean };
  failLoad: (conversationId: string) => void;
  beginPage: (conversationId: string, side: 'older' | 'newer') => void;
  /** Adds a page at the window's older (newer) edge. */
  addPage: (conversationId: string, page: MessagePage, side: 'older' | 'newer') => void;
  /** The page was not read; failed: because of an error (it is then not asked for again by itself). */
  failPage: (conversationId: string, side: 'older' | 'newer', failed?: boolean) => void;
  /** Asks the view to bring a message into view (null: done). */
  setFocus: (conversationId: string, messageId: string | null) => void;
  /** Asks the view to go back to the latest and follow it (the person sent a message). */
  askLatest: (conversationId: string) => void;
  /** Holds only this page (a jump far back); tracks the conversation if needed. */
  replaceWindow: (conversationId: string, page: MessagePage) => void;
  /** Upserts by rev; ignored for conversations not tracked. */
  upsert: (message: Message) => void;
  /**
   * Applies deltas, in order, to the conversations tracked, as one update
   * of the store (see receiveDelta). Returns the conversations a delta did
   * not fit: marked stale, the caller reloads them.
   */
  applyDeltas: (deltas: readonly MessageDeltaEvent[]) => string[];
  /** A stream ended (see endStream); 'mismatch': the conversation is marked stale, the caller reloads it. */
  endStream: (conversationId: string, end: R.StreamEnd) => DeltaOutcome | 'untracked';
  markStale: (conversationId: string) => void;
  remove: (conversationId: string) => void;
  reset: () => void;
  /** Copies every message held anew, so that they sit together in memory (see compactMessages). */
  compact: () => void;
}

function update(
  set: (fn: (s: MessagesStore) => Partial<MessagesStore>) => void,
  id: string,
  fn: (c: ConversationMessages) => ConversationMessages,
) {
  set((s) => {
    const cur = s.byConversation[id];
    if (!cur) return {};
    const next = fn(cur);
    return next === cur ? {} : { byConversation: { ...s.byConversation, [id]: next } };
  });
}

export const useMessagesStore = create<MessagesStore>()((set, get) => ({
  byConversation: {},

  ensure: (id) =>
    set((s) =>
      s.byConversation[id] ? {} : { byConversation: { ...s.byConversation, [id]: R.emptyConversationMessages() } },
    ),

  beginLoad: (id) => {
    get().ensure(id);
    update(set, id, R.beginLoad);
  },

  finishLoad: (id, snapshot, hasOlder = false) => {
    let stale = false;
    update(set, id, (c) => {
      const next = R.finishLoad(c, snapshot, hasOlder);
      stale = next.stale;
      return next;
    });
    return { stale };
  },

  failLoad: (id) => update(set, id, R.failLoad),

  beginPage: (id, side) => update(set, id, (c) => R.beginPage(c, side)),
  addPage: (id, page, side) => update(set, id, (c) => R.addPage(c, page, side)),
  failPage: (id, side, failed = false) => update(set, id, (c) => R.failPage(c, side, failed)),
  setFocus: (id, messageId) => update(set, id, (c) => R.setFocus(c, messageId)),
  askLatest: (id) => update(set, id, R.askLatest),
  replaceWindow: (id, page) => {
    get().ensure(id);
    update(set, id, (c) => R.replaceWindow(c, page));
  },

  upsert: (message) => {
    arrivedSinceCompaction = true;
    update(set, message.conversationId, (c) => R.upsertMessage(c, message));
  },

  applyDeltas: (deltas) => {
    arrivedSinceCompaction = true;
    const mismatched = new Set<string>();
    set((s) => {
      let byConversation = s.byConversation;
      for (const delta of deltas) {
        const id = delta.conversationId;
        const cur = byConversation[id];
        if (!cur) continue;
        const { state, outcome } = R.receiveDelta(cur, delta);
        if (outcome === 'mismatch') mismatched.add(id);
        if (state === cur) continue;
        if (byConversation === s.byConversation) byConversation = { ...byConversation };
        byConversation[id] = state;
      }
      return byConversation === s.byConversation ? s : { byConversation };
    });
    return [...mismatched];
  },

  endStream: (id, end) => {
    arrivedSinceCompaction = true;
    const cur = get().byConversation[id];
    if (!cur) return 'untracked';
    const { state, outcome } = R.endStream(cur, end);
    if (outcome === 'mismatch') update(set, id, R.markStale);
    else if (state !== cur) update(set, id, () => state);
    return outcome;
  },

  markStale: (id) => update(set, id, R.markStale),

  remove: (id) =>
    set((s) => {
      if (!s.byConversation[id]) return {};
      const byConversation = { ...s.byConversation };
      delete byConversation[id];
      return { byConversation };
    }),

  reset: () => {
    arrivedSinceCompaction = false;
    set({ byConversation: {} });
  },

  compact: () => {
    const copy = compactCopy(get().byConversation);
    if (!copy) return;
    compacting = true;
    try {
      set({ byConversation: copy });
    } finally {
      compacting = false;
    }
  },
}));

// Whether messages arrived from a task since the last compaction (pages
// read from Go are parsed in one go, together already: a window that only
// read them is not copied), and whether the change being told is one.
let arrivedSinceCompaction = false;
let compacting = false;

/**
 * The messages copied anew, for when the window is idle and about to give
 * back its memory (Go calls it before the web process's release, through
 * window.errandCompactMemory). JavaScriptCore's collector does not move
 * what survives: after a long task each message left lies among the
 * garbage of the deltas that built it, and holds on to its 16 kB block of
 * the heap. Copied in one go, the messages fill few blocks and the old
 * ones come free (a 200-step task left 14–17 MB in the web process instead
 * of 20.5–24: docs/BENCHMARKS.md). Equal values, new objects: what the
 * window renders does not change, and Markdown, held by its text, is not
 * parsed again. Null when nothing arrived since the last copy, or when
 * something cannot be copied (the store stays as it is).
 */
function compactCopy(byConversation: MessagesStore['byConversation']): MessagesStore['byConversation'] | null {
  if (!arrivedSinceCompaction) return null;
  try {
    const copy = structuredClone(byConversation);
    arrivedSinceCompaction = false;
    return copy;
  } catch (err) {
    console.warn('Errand: the messages could not be copied to compact them', err);
    return null;
  }
}

/**
 * Listens to the messages' changes but their compaction, which changes no
 * value: what watches the window for a change it would show (the first
 * screen's copy) does not wake for it, after the release it came before.
 */
export function subscribeToMessageChanges(listener: () => void): () => void {
  return useMessagesStore.subscribe(() => {
    if (!compacting) listener();
  });
}

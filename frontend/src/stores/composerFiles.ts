import { create } from 'zustand';
import type { Attachment } from '../api/types';

/**
 * A file in the composer, before its message is sent: being checked by Go,
 * accepted (its stored attachment), or refused (Go's reason, or a limit).
 */
export interface ComposerFile {
  /** Local key: a file has no id until Go stores it. */
  key: string;
  name: string;
  /** Bytes; 0 for a dropped path until Go has read it. */
  size: number;
  state: 'checking' | 'ready' | 'refused';
  attachment?: Attachment;
  error?: string;
  /** An object URL of a local image, for its thumbnail (revoked when the chip goes). */
  preview?: string;
}

/** The files in each conversation's composer, and the last limit crossed there. */
export interface ComposerFilesStore {
  byConversation: Record<string, ComposerFile[]>;
  limitNote: Record<string, string>;
  add: (conversationId: string, files: ComposerFile[]) => void;
  update: (conversationId: string, key: string, change: Partial<ComposerFile>) => void;
  /** Takes files away (revoking their thumbnails). */
  remove: (conversationId: string, keys: string[]) => void;
  setLimitNote: (conversationId: string, note: string) => void;
  reset: () => void;
}

function revoke(files: ComposerFile[]) {
  for (const f of files) if (f.preview) URL.revokeObjectURL(f.preview);
}

export const useComposerFiles = create<ComposerFilesStore>()((set, get) => ({
  byConversation: {},
  limitNote: {},
  add: (id, files) =>
    set((s) => ({ byConversation: { ...s.byConversation, [id]: [...(s.byConversation[id] ?? []), ...files] } })),
  update: (id, key, change) =>
    set((s) => {
      const list = s.byConversation[id];
      if (!list?.some((f) => f.key === key)) return {};
      return { byConversation: { ...s.byConversation, [id]: list.map((f) => (f.key === key ? { ...f, ...change } : f)) } };
    }),
  remove: (id, keys) => {
    const list = get().byConversation[id] ?? [];
    revoke(list.filter((f) => keys.includes(f.key)));
    set((s) => ({
      byConversation: { ...s.byConversation, [id]: (s.byConversation[id] ?? []).filter((f) => !keys.includes(f.key)) },
      limitNote: { ...s.limitNote, [id]: '' },
    }));
  },
  setLimitNote: (id, note) => set((s) => ({ limitNote: { ...s.limitNote, [id]: note } })),
  reset: () => {
    for (const list of Object.values(get().byConversation)) revoke(list);
    set({ byConversation: {}, limitNote: {} });
  },
}));

const NONE: ComposerFile[] = [];

/** The composer's files in a conversation (a stable empty list when none). */
export function useFilesOf(conversationId: string): ComposerFile[] {
  return useComposerFiles((s) => s.byConversation[conversationId] ?? NONE);
}

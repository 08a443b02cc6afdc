import { create } from 'zustand';
import { toApiError } from '../api/errors';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  message: string;
  code?: string;
  /** What Go said beyond the message, for "Copy details". */
  details?: string;
  /** When it was shown (RFC 3339). */
  time: string;
}

/** An error's code and details, kept for "Copy details". */
export type NoticeExtra = Pick<Notice, 'code' | 'details'>;

export interface NoticesStore {
  items: Notice[];
  push: (kind: Notice['kind'], message: string, extra?: NoticeExtra) => void;
  dismiss: (id: number) => void;
  reset: () => void;
}

let nextId = 1;
const MAX = 4;

export const useNoticesStore = create<NoticesStore>()((set) => ({
  items: [],
  push: (kind, message, extra = {}) =>
    set((s) => {
      // The same message twice in a row is shown once.
      const last = s.items[s.items.length - 1];
      if (last && last.message === message && last.kind === kind) return {};
      const { code, details } = extra;
      const item: Notice = {
        id: nextId++,
        kind,
        message,
        time: new Date().toISOString(),
        ...(code ? { code } : {}),
        ...(details ? { details } : {}),
      };
      return { items: [...s.items, item].slice(-MAX) };
    }),
  dismiss: (id) => set((s) => ({ items: s.items.filter((n) => n.id !== id) })),
  reset: () => set({ items: [] }),
}));

const PREFIX: Record<string, string> = {
  model: 'Model error',
  not_found: 'Not found',
  conflict: 'Not possible right now',
  invalid: 'Invalid request',
};

/** Shows any error as a readable, dismissible alert. */
export function reportError(err: unknown, context?: string): void {
  const e = toApiError(err);
  const prefix = context ?? PREFIX[e.code];
  const message = prefix ? `${prefix}: ${e.message}` : e.message;
  useNoticesStore.getState().push('error', message, { code: e.code, details: e.details });
}

export function reportInfo(message: string): void {
  useNoticesStore.getState().push('info', message);
}

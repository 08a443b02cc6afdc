import { create } from 'zustand';

/**
 * The conversation the person asked to delete, waiting for confirmation in
 * ConfirmDeleteDialog. Anything (the list, the header) can ask.
 */
export interface DeleteRequestStore {
  id: string | null;
  /** Where focus goes back when the dialog closes. */
  returnFocus: HTMLElement | null;
  request: (id: string) => void;
  close: () => void;
}

export const useDeleteRequest = create<DeleteRequestStore>()((set) => ({
  id: null,
  returnFocus: null,
  request: (id) =>
    set({
      id,
      returnFocus: document.activeElement instanceof HTMLElement ? document.activeElement : null,
    }),
  close: () => set({ id: null, returnFocus: null }),
}));

export function requestDelete(id: string): void {
  useDeleteRequest.getState().request(id);
}

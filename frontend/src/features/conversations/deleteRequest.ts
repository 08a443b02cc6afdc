import { create } from 'zustand';

/**
 * The conversation the person asked to delete, waiting for confirmation in
 * ConfirmDeleteDialog. Anything (the list, the header) can ask.
 */
export interface DeleteRequestStore {
  id: string | null;
  request: (id: string) => void;
  close: () => void;
}

export const useDeleteRequest = create<DeleteRequestStore>()((set) => ({
  id: null,
  request: (id) => set({ id }),
  close: () => set({ id: null }),
}));

export function requestDelete(id: string): void {
  useDeleteRequest.getState().request(id);
}

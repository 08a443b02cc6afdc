// Whether the search dialog is open, and where focus goes back when it closes.
import { create } from 'zustand';

interface SearchDialogState {
  open: boolean;
  returnFocus: HTMLElement | null;
  show: () => void;
  close: () => void;
}

export const useSearchDialog = create<SearchDialogState>()((set) => ({
  open: false,
  returnFocus: null,
  show: () =>
    set((s) =>
      s.open ? {} : { open: true, returnFocus: document.activeElement instanceof HTMLElement ? document.activeElement : null },
    ),
  close: () => set({ open: false, returnFocus: null }),
}));

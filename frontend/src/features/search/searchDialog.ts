// Whether the search dialog is open (the dialog gives the focus back to what had it when it closes).
import { create } from 'zustand';

interface SearchDialogState {
  open: boolean;
  show: () => void;
  close: () => void;
}

export const useSearchDialog = create<SearchDialogState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

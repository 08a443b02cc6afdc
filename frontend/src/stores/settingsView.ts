// Whether the settings dialog is open, and at which section. The gear in
// the sidebar and the demo banner's "Connect a model" both open it.
import { create } from 'zustand';

export type SettingsSection = 'provider';

export interface SettingsViewStore {
  open: boolean;
  /** The section to show first; null for the top. */
  section: SettingsSection | null;
  /** What had the focus when the dialog opened; it gets it back on close (if it is still there). */
  returnTo: HTMLElement | null;
  openSettings: (section?: SettingsSection | null) => void;
  closeSettings: () => void;
  reset: () => void;
}

export const useSettingsView = create<SettingsViewStore>()((set) => ({
  open: false,
  section: null,
  returnTo: null,
  openSettings: (section = null) =>
    set((s) => ({
      open: true,
      section,
      returnTo: s.open
        ? s.returnTo
        : document.activeElement instanceof HTMLElement && document.activeElement !== document.body
          ? document.activeElement
          : null,
    })),
  closeSettings: () => set({ open: false, section: null }),
  reset: () => set({ open: false, section: null, returnTo: null }),
}));

/** Opens the settings (at a section). */
export function openSettings(section?: SettingsSection | null): void {
  useSettingsView.getState().openSettings(section);
}

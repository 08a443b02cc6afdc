import { useRef, type ReactNode } from 'react';
import { lazyView } from '../../components/LazyView';
import { useSettingsView } from '../../stores/settingsView';

// The dialog (with its sections: agents, MCP servers, memory, data) loads
// when it first opens; pointing at the gear starts loading it.
const SettingsDialog = lazyView('Settings', () => import('./SettingsDialog').then((m) => m.SettingsDialog));

/**
 * The gear in the sidebar's footer; opens the settings. It also shows the
 * dialog when something else opens it (the demo banner's "Connect a
 * model"); on close the focus goes back to whatever opened it, or here.
 */
export function SettingsButton({ children }: { children?: ReactNode }) {
  const open = useSettingsView((s) => s.open);
  const section = useSettingsView((s) => s.section);
  const ref = useRef<HTMLButtonElement>(null);
  const close = () => {
    const back = useSettingsView.getState().returnTo;
    useSettingsView.getState().closeSettings();
    requestAnimationFrame(() => {
      if (back && back.isConnected && back !== document.body) back.focus();
      else ref.current?.focus();
    });
  };
  return (
    <div className="sidebar-footer">
      <button
        ref={ref}
        type="button"
        className="btn btn-ghost settings-gear"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => useSettingsView.getState().openSettings()}
        onPointerEnter={() => void SettingsDialog.preload()}
      >
        <svg viewBox="0 0 16 16" width="15" height="15" aria-hidden="true">
          <path
            d="M6.9 1.5h2.2l.35 1.8c.4.15.78.37 1.12.64l1.74-.6 1.1 1.9-1.38 1.2a4.6 4.6 0 0 1 0 1.3l1.38 1.2-1.1 1.9-1.74-.6c-.34.27-.72.49-1.12.64l-.35 1.8H6.9l-.35-1.8a4.3 4.3 0 0 1-1.12-.64l-1.74.6-1.1-1.9 1.38-1.2a4.6 4.6 0 0 1 0-1.3L2.59 5.24l1.1-1.9 1.74.6c.34-.27.72-.49 1.12-.64z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.1"
            strokeLinejoin="round"
          />
          <circle cx="8" cy="8" r="2" fill="none" stroke="currentColor" strokeWidth="1.1" />
        </svg>
        Settings
      </button>
      {children}
      {open && <SettingsDialog onClose={close} section={section} />}
    </div>
  );
}

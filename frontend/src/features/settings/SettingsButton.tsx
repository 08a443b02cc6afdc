import { useRef, useState } from 'react';
import { SettingsDialog } from './SettingsDialog';

/** The gear in the sidebar's footer; opens the settings. */
export function SettingsButton() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => ref.current?.focus());
  };
  return (
    <div className="sidebar-footer">
      <button
        ref={ref}
        type="button"
        className="btn btn-ghost settings-gear"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
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
      {open && <SettingsDialog onClose={close} />}
    </div>
  );
}

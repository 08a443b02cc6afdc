import { useEffect, useId, useRef, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { lazyView } from '../../components/LazyView';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { openSettings } from '../../stores/settingsView';

// The facts views load when the panel or Settings → Memory first opens.
const MemoryView = lazyView('memory', () => import('./MemoryView').then((m) => m.MemoryView));
const AllFactsView = lazyView('memory', () => import('./MemoryView').then((m) => m.AllFactsView));

/** The "Use memory" switch: saved at once, through the settings. */
export function MemorySwitch({
  checked,
  onChange,
  describedBy,
}: {
  checked: boolean;
  onChange: (on: boolean) => Promise<void>;
  describedBy?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorReport | null>(null);
  const toggle = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onChange(!checked);
    } catch (err) {
      const e = toApiError(err);
      setError({ ...reportOf(e, new Date().toISOString()), message: `The setting could not be saved: ${e.message}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="memory-switch-row">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={describedBy}
        aria-disabled={busy || undefined}
        className="memory-switch"
        onClick={() => void toggle()}
      >
        <span className="memory-switch-track" aria-hidden="true">
          <span className="memory-switch-thumb" />
        </span>
        <span className="memory-switch-label">Use memory</span>
      </button>
      {error && (
        <div className="memory-error">
          <p role="alert">{error.message}</p>
          <CopyDetailsButton report={error} />
        </div>
      )}
    </div>
  );
}

/**
 * Settings → Memory: whether the agent uses memory, and the facts it was
 * asked to remember (the global ones and every conversation's, filtered),
 * to see, add, edit and delete.
 */
export function MemorySection({ enabled, onToggle }: { enabled: boolean; onToggle: (on: boolean) => Promise<void> }) {
  const headId = useId();
  const helpId = useId();
  return (
    <section className="settings-group memory-section" aria-labelledby={headId}>
      <h3 id={headId} className="memory-title">
        Memory
      </h3>
      <p id={helpId} className="settings-help">
        Facts the agent was asked to remember (with its remember tool, or added here). They go with every request to
        the model. Turned off, the agent neither sees nor keeps any; the facts stay here. Keys, passwords and other
        secrets are refused.
      </p>
      <MemorySwitch checked={enabled} onChange={onToggle} describedBy={helpId} />
      <AllFactsView />
    </section>
  );
}

/**
 * The conversation header's "Memory" button and its panel: this
 * conversation's facts and the global ones.
 */
export function ConversationMemory({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  const [enabled, setEnabled] = useState(true);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [conversationId]);
  useEffect(() => {
    if (!open) return;
    let live = true;
    Promise.resolve()
      .then(() => api.getSettings())
      .then(
        (s) => live && setEnabled(s.memoryEnabled !== false),
        () => {},
      );
    return () => {
      live = false;
    };
  }, [open]);

  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => button.current?.focus());
  };
  return (
    <span className="memory-anchor">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-small"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        Memory
      </button>
      {open && (
        <div
          id={panelId}
          className="memory-panel"
          role="region"
          aria-label="Conversation memory"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !e.defaultPrevented) {
              e.preventDefault();
              e.stopPropagation();
              close();
            }
          }}
        >
          <div className="memory-panel-head">
            <h2 className="memory-panel-title">Memory</h2>
            <button type="button" className="icon-btn" aria-label="Close memory" title="Close (Esc)" onClick={close}>
              ×
            </button>
          </div>
          {!enabled && (
            <p className="memory-off" role="note">
              Memory is off: the agent neither sees nor keeps these facts.{' '}
              <button type="button" className="memory-link" onClick={() => openSettings()}>
                Open Settings
              </button>
            </p>
          )}
          <MemoryView conversationId={conversationId} />
        </div>
      )}
    </span>
  );
}

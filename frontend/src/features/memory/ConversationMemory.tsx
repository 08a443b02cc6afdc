import { useEffect, useId, useRef, useState } from 'react';
import * as api from '../../api';
import { lazyView } from '../../components/LazyView';
import { openSettings } from '../../stores/settingsView';

// The facts view loads when the panel first opens.
const MemoryView = lazyView('memory', () => import('./MemoryView').then((m) => m.MemoryView));

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

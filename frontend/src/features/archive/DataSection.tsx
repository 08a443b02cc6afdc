// Settings → "Notifications and data": the notifications switch, and
// backing up and restoring everything.
import { useId, useState } from 'react';
import { exportBackup, importConversations, restoreBackup } from './archiveActions';

export function DataSection({ notifications, onToggle }: { notifications: boolean; onToggle: (on: boolean) => Promise<void> }) {
  const headId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = (fn: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  const toggle = async (on: boolean) => {
    setError('');
    try {
      await onToggle(on);
    } catch (err) {
      setError(`The setting could not be saved: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <section className="settings-group data-section" aria-labelledby={headId}>
      <h3 id={headId} className="memory-title">
        Notifications and data
      </h3>
      <label className="switch data-switch">
        <input type="checkbox" checked={notifications} onChange={(e) => void toggle(e.target.checked)} />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Desktop notifications</span>
      </label>
      <p className="settings-help">
        When a task in a conversation you are not looking at finishes, fails, or needs an answer or an approval. The
        window title counts the tasks that wait for you.
      </p>
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
      <p className="settings-help">
        A backup holds every conversation, the settings and the remembered facts — never an API key. It is restored into
        an empty folder, which Errand then opens when started with ERRAND_DATA_DIR set to it.
      </p>
      <div className="data-actions">
        <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={run(exportBackup)}>
          Back up everything
        </button>
        <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={run(restoreBackup)}>
          Restore a backup
        </button>
        <button type="button" className="btn btn-ghost btn-small" disabled={busy} onClick={run(importConversations)}>
          Import a conversation
        </button>
      </div>
    </section>
  );
}

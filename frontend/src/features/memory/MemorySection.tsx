import { useId, useState } from 'react';
import { toApiError } from '../../api/errors';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { lazyView } from '../../components/LazyView';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';

// The facts view loads when Settings → Memory first opens.
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

import type { HealthStatus } from '../../api/types';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { useAppStore } from '../../stores/app';
import './health.css';

/**
 * The whole window when Errand could not start: why, and where its data
 * lives. Nothing else is shown or asked of Go (nothing else is bound).
 */
export function UnavailableScreen({ health }: { health: HealthStatus }) {
  const message = health.message || 'Errand could not open its data.';
  const details = health.dataDir ? `Data folder: ${health.dataDir}` : undefined;
  return (
    <main className="unavailable" aria-labelledby="unavailable-title">
      <div className="unavailable-card" role="alert">
        <h1 id="unavailable-title">Errand cannot start</h1>
        <p className="unavailable-message">{message}</p>
        {health.dataDir && (
          <div className="unavailable-dir">
            <span className="unavailable-label">Data folder</span>
            <code className="unavailable-path">{health.dataDir}</code>
          </div>
        )}
        <p className="unavailable-hint">
          Your conversations are not lost. If another Errand window uses this folder, switch to it; otherwise fix the
          problem above (for example the folder&apos;s permissions or free disk space), then quit and start Errand
          again.
        </p>
        <CopyDetailsButton report={{ message, details }} />
      </div>
    </main>
  );
}

/** A persistent banner while the database is read-only. */
export function ReadOnlyBanner() {
  const health = useAppStore((s) => s.health);
  if (!health?.ready || !health.readOnly) return null;
  return (
    <div className="readonly-banner" role="note" aria-label="Read-only">
      <strong>Read-only:</strong> you can read everything, nothing new can be saved.
      {health.message ? <span className="readonly-detail"> {health.message}</span> : null}
    </div>
  );
}

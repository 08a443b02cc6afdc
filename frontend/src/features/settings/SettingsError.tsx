import type { ReactNode } from 'react';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import type { ErrorReport } from '../../lib/errorDetails';

/**
 * Something in Settings could not be read: why (children), a button to ask
 * again and Copy details. An alert when the part it replaces is missing, a
 * status when the rest still works.
 */
export function SettingsError({
  report,
  onRetry,
  retryLabel = 'Try again',
  className = '',
  urgent = false,
  children,
}: {
  report: ErrorReport;
  onRetry: () => void;
  retryLabel?: string;
  className?: string;
  urgent?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`settings-error${className ? ` ${className}` : ''}`} role={urgent ? 'alert' : 'status'}>
      <p>{children}</p>
      <div className="settings-error-actions">
        <button type="button" className="btn btn-ghost btn-small" onClick={onRetry}>
          {retryLabel}
        </button>
        <CopyDetailsButton report={report} />
      </div>
    </div>
  );
}

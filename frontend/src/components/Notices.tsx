import { useNoticesStore, type Notice } from '../stores/notices';
import { CopyDetailsButton } from './CopyDetailsButton';

function NoticeText({ notice }: { notice: Notice }) {
  if (notice.kind !== 'error') return <span className="toast-text">{notice.message}</span>;
  const { message, code, details, time } = notice;
  return (
    <span className="toast-text">
      {message}
      <CopyDetailsButton className="toast-copy" report={{ message, code, details, time }} />
    </span>
  );
}

/** Errors (role="alert") and information, each dismissible; never in the first screen's copy. */
export function Notices() {
  const items = useNoticesStore((s) => s.items);
  const dismiss = useNoticesStore((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite" data-no-snapshot="">
      {items.map((n) => (
        <div key={n.id} className={`toast toast-${n.kind}`} role={n.kind === 'error' ? 'alert' : undefined}>
          <NoticeText notice={n} />
          <button type="button" className="icon-btn toast-close" aria-label="Close notification" title="Close" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

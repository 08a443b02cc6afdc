import { useNoticesStore } from '../stores/notices';

/** Errors (role="alert") and information, each dismissible. */
export function Notices() {
  const items = useNoticesStore((s) => s.items);
  const dismiss = useNoticesStore((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite">
      {items.map((n) => (
        <div key={n.id} className={`toast toast-${n.kind}`} role={n.kind === 'error' ? 'alert' : undefined}>
          <span className="toast-text">{n.message}</span>
          <button type="button" className="icon-btn toast-close" aria-label="Close notification" title="Close" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

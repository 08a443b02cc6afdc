import { useId, useState, type Ref } from 'react';
import * as api from '../../api';
import { toApiError, type Summary } from '../../api';

/**
 * Where compaction happened: the model sees a summary in place of the
 * messages above, which stay here. "Show summary" opens what it sees.
 */
export function SummaryMarker({
  summaryId,
  rowRef,
  index,
}: {
  summaryId: string;
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
}) {
  const [open, setOpen] = useState(false);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [error, setError] = useState('');
  const id = useId();

  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next && !summary) {
      setError('');
      api.getSummary(summaryId).then(setSummary, (err: unknown) => setError(toApiError(err).message));
    }
  };

  return (
    <div ref={rowRef} data-index={index} className="notice-row summary-marker">
      <span className="notice-text text">
        Earlier messages summarised ·{' '}
        <button type="button" className="link-btn" aria-expanded={open} aria-controls={id} onClick={toggle}>
          Show summary
        </button>
      </span>
      {open && (
        <section id={id} className="summary-body" role="region" aria-label="Summary">
          {error !== '' && <p className="summary-error" role="alert">{error}</p>}
          {error === '' && !summary && <p className="summary-loading">Loading…</p>}
          {summary && (
            <>
              <p className="text summary-text">{summary.text}</p>
              {summary.toolLog !== '' && (
                <>
                  <h3 className="summary-kicker">Tools run before it</h3>
                  <pre className="summary-log">{summary.toolLog}</pre>
                </>
              )}
            </>
          )}
        </section>
      )}
    </div>
  );
}

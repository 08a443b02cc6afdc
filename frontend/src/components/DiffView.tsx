import { useMemo } from 'react';
import { diffLines } from '../lib/diff';

/** A unified diff: + lines green, - lines red, monospace, scrollable. */
export function DiffView({ diff, label = 'Changes' }: { diff: string; label?: string }) {
  const lines = useMemo(() => diffLines(diff), [diff]);
  const added = lines.filter((l) => l.kind === 'add').length;
  const removed = lines.filter((l) => l.kind === 'del').length;
  return (
    <figure className="diff">
      <figcaption className="diff-caption">
        <span>{label}</span>
        {(added > 0 || removed > 0) && (
          <span className="diff-counts">
            <span className="diff-count-add">+{added}</span> <span className="diff-count-del">−{removed}</span>
            <span className="sr-only">
              {' '}
              ({added} {added === 1 ? 'line' : 'lines'} added, {removed} removed)
            </span>
          </span>
        )}
      </figcaption>
      <pre className="diff-body" tabIndex={0} aria-label={label}>
        {lines.map((l, i) => (
          <span key={i} className={`diff-line diff-${l.kind}`}>
            {l.text === '' ? ' ' : l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
}

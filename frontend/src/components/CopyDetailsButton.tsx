import { useEffect, useRef, useState } from 'react';
import { copyErrorReport, type ErrorReport } from '../lib/errorDetails';

type CopyState = 'idle' | 'copied' | 'failed';

const STATUS: Record<CopyState, string> = {
  idle: '',
  copied: 'Copied.',
  failed: 'Could not copy: select the text instead.',
};

/**
 * "Copy details": puts an error's message, code, details and context on the
 * clipboard, and says whether that worked (beside it, so the button's name
 * stays the same).
 */
export function CopyDetailsButton({ report, className = '' }: { report: ErrorReport; className?: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    const ok = await copyErrorReport(report);
    setState(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 2500);
  };
  return (
    <span className={`copy-details ${className}`.trim()}>
      <button type="button" className="btn btn-ghost btn-small" onClick={() => void copy()}>
        Copy details
      </button>
      <span className="copy-details-status" aria-live="polite">
        {STATUS[state]}
      </span>
    </span>
  );
}

import type { Verdict } from '../../api';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import type { ErrorReport } from '../../lib/errorDetails';
import { modelCount, unreachableHint, verdictLook } from './providerForm';

function VerdictIcon({ kind }: { kind: string }) {
  const common = { viewBox: '0 0 16 16', width: 16, height: 16, 'aria-hidden': true, className: 'verdict-icon' } as const;
  switch (kind) {
    case 'ok':
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="7" fill="currentColor" opacity="0.16" />
          <path d="M4.6 8.3 7 10.6l4.4-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case 'wrong_key':
      return (
        <svg {...common}>
          <circle cx="5.5" cy="8" r="3" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M8.5 8h6M12.5 8v2.5M14.5 8v2" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    case 'model_not_found':
      return (
        <svg {...common}>
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M10.4 10.4 14 14M5.3 5.3l3.4 3.4M8.7 5.3 5.3 8.7" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    case 'unreachable':
      return (
        <svg {...common}>
          <path
            d="M2 6.2a9 9 0 0 1 12 0M4.2 8.6a5.8 5.8 0 0 1 7.6 0M6.5 11a2.4 2.4 0 0 1 3 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
          <path d="M2.5 2.5l11 11" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      );
    default:
      return (
        <svg {...common}>
          <path d="M8 1.8 15 14H1z" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
          <path d="M8 6v3.6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          <circle cx="8" cy="11.8" r="0.9" fill="currentColor" />
        </svg>
      );
  }
}

/**
 * A connection test's outcome: headline, Go's message, an icon and a colour
 * by kind; a failure can be copied (report, when the test call itself
 * failed, says more than the verdict).
 */
export function VerdictView({
  verdict,
  report,
  presetId = '',
}: {
  verdict: Verdict;
  report?: ErrorReport | null;
  presetId?: string;
}) {
  const look = verdictLook(verdict.kind, verdict.message);
  const hint = verdict.kind === 'unreachable' ? unreachableHint(presetId) : '';
  const detail =
    verdict.kind === 'ok'
      ? `${modelCount(verdict.modelCount)} available on this server.`
      : (verdict.message || 'The server did not answer as expected.') + (hint ? ` ${hint}` : '');
  return (
    <>
      <div className={`verdict verdict-${look.tone}`} data-testid="verdict" data-kind={verdict.kind}>
        <VerdictIcon kind={verdict.kind} />
        <div className="verdict-body">
          <strong className="verdict-title">{look.title}</strong>
          <span className="verdict-message">{detail}</span>
        </div>
      </div>
      {!verdict.ok && (
        <CopyDetailsButton className="verdict-copy" report={report ?? { message: `${look.title}: ${detail}`, code: verdict.kind }} />
      )}
    </>
  );
}

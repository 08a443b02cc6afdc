import { copyText } from './clipboard';

/** What the person can copy about an error shown in the window. */
export interface ErrorReport {
  message: string;
  /** The Go error code ("internal", "model", …). */
  code?: string;
  /** What Go said beyond the message. */
  details?: string;
  taskId?: string;
  model?: string;
  /** When it happened (RFC 3339). */
  time?: string;
}

/** An error as the block of text "Copy details" puts on the clipboard. */
export function errorReportText(r: ErrorReport): string {
  const lines = [`Error: ${r.message}`];
  if (r.code) lines.push(`Code: ${r.code}`);
  if (r.taskId) lines.push(`Task: ${r.taskId}`);
  if (r.model) lines.push(`Model: ${r.model}`);
  if (r.time) lines.push(`Time: ${r.time}`);
  if (r.details) lines.push('Details:', r.details);
  return lines.join('\n');
}

/** Any error value (an ApiError, an Error, a string) as a report. */
export function reportOf(err: unknown, time?: string): ErrorReport {
  const e = err as { message?: unknown; code?: unknown; details?: unknown } | null | undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const report: ErrorReport = { message };
  if (typeof e?.code === 'string' && e.code) report.code = e.code;
  if (typeof e?.details === 'string' && e.details) report.details = e.details;
  if (time) report.time = time;
  return report;
}

/** Puts an error's report on the clipboard; resolves to whether it worked, never rejects. */
export function copyErrorReport(r: ErrorReport): Promise<boolean> {
  return copyText(errorReportText(r));
}

import { ERROR_CODES, type ErrorCode, type FrontendError } from './types';

// Go's error codes (chat.Code…, through contract.gen.ts).
const KNOWN_CODES: readonly string[] = ERROR_CODES;

/**
 * An error from a call to Go, normalized. `code` is one of the Go codes;
 * `details`, when Go sent them, say more than the message (for a report);
 * `field`, on an invalid input, is the field it is about, as the input's
 * JSON names it ("maxSteps", "baseUrl"), for the form to mark.
 */
export class ApiError extends Error {
  readonly code: ErrorCode | string;
  readonly details?: string;
  readonly field?: string;

  constructor(code: ErrorCode | string, message: string, details?: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    if (details) this.details = details;
    if (field) this.field = field;
  }
}

function fromObject(value: unknown): ApiError | null {
  if (typeof value !== 'object' || value === null) return null;
  // details: what Go says beyond the message, when it says more.
  const v = value as { [K in keyof FrontendError]?: unknown };
  if (typeof v.message !== 'string' && typeof v.code !== 'string') return null;
  const code = typeof v.code === 'string' && v.code !== '' ? v.code : 'internal';
  const message = typeof v.message === 'string' && v.message !== '' ? v.message : defaultMessage(code);
  const details = typeof v.details === 'string' && v.details.trim() !== '' ? v.details : undefined;
  const field = typeof v.field === 'string' && v.field !== '' ? v.field : undefined;
  return new ApiError(code, message, details, field);
}

function defaultMessage(code: string): string {
  switch (code) {
    case 'invalid':
      return 'The request was not valid.';
    case 'not_found':
      return 'It no longer exists.';
    case 'conflict':
      return 'That clashes with what is happening right now.';
    case 'model':
      return 'The model server failed.';
    default:
      return 'Something went wrong.';
  }
}

/**
 * Normalizes whatever a rejected binding call produced: the `{code, message}`
 * object Go sends, a JSON string of it, a plain string, or a JS Error (for
 * instance when the Wails bridge is missing).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const obj = fromObject(err);
  if (obj && !(err instanceof Error)) return obj;
  if (typeof err === 'string') {
    const s = err.trim();
    if (s.startsWith('{')) {
      try {
        const parsed = fromObject(JSON.parse(s));
        if (parsed) return parsed;
      } catch {
        // not JSON: fall through
      }
    }
    return new ApiError('internal', s || defaultMessage('internal'));
  }
  if (err instanceof Error) {
    // The Wails runtime rejects with `new Error(value)`: a JSON string of
    // {code, message} survives that as the message.
    const m = err.message.trim();
    if (m.startsWith('{')) {
      try {
        const parsed = fromObject(JSON.parse(m));
        if (parsed) return parsed;
      } catch {
        // not JSON: fall through
      }
    }
    return new ApiError('internal', err.message || defaultMessage('internal'));
  }
  return new ApiError('internal', defaultMessage('internal'));
}

export function isKnownCode(code: string): code is ErrorCode {
  return KNOWN_CODES.includes(code);
}

/**
 * Milliseconds since the epoch for an RFC 3339 timestamp as Go writes it
 * (fractions up to nanoseconds, "Z" or an offset). Keeps sub-millisecond
 * digits as a fraction so close events still order correctly. NaN → 0.
 */
export function timeValue(ts: string | undefined | null): number {
  if (!ts) return 0;
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/.exec(ts);
  if (!m) {
    const v = Date.parse(ts);
    return Number.isNaN(v) ? 0 : v;
  }
  const [, base, frac = '', zone = 'Z'] = m;
  const ms = Date.parse(`${base}.${(frac + '000').slice(0, 3)}${zone}`);
  if (Number.isNaN(ms)) return 0;
  const sub = frac.length > 3 ? Number(`0.${frac.slice(3)}`) : 0;
  return ms + sub;
}

/** "0:07", "12:34", "1:02:03". */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

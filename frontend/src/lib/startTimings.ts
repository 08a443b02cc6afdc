/**
 * The start's steps, in milliseconds since the page began to load: the
 * page's own (its HTML read, parsed, first painted) and the marks the app
 * sets on its way to the first screen. Go logs them when the window says
 * it is ready, so a slow start shows where its time went.
 */
const PREFIX = 'start:';

/** Marks a step of the start ("module", "health", "painted", …). */
export function markStart(step: string): void {
  performance.mark(PREFIX + step);
}

/** The steps so far, rounded to the millisecond. */
export function startTimings(): Record<string, number> {
  const out: Record<string, number> = {};
  const put = (step: string, ms: number) => (out[step] = Math.round(ms));
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (nav) {
    put('html', nav.responseEnd);
    put('parsed', nav.domInteractive);
  }
  for (const p of performance.getEntriesByType('paint')) {
    if (p.name === 'first-contentful-paint') put('first-paint', p.startTime);
  }
  for (const m of performance.getEntriesByType('mark')) {
    if (m.name.startsWith(PREFIX)) put(m.name.slice(PREFIX.length), m.startTime);
  }
  return out;
}

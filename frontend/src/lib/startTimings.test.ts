import { afterEach, describe, expect, it } from 'vitest';
import { markStart, startTimings } from './startTimings';

describe('startTimings', () => {
  afterEach(() => performance.clearMarks());

  it('gives each marked step of the start in whole milliseconds, and no other mark', () => {
    performance.mark('someone-else');
    markStart('module');
    markStart('painted');
    const t = startTimings();
    expect(Object.keys(t)).toEqual(expect.arrayContaining(['module', 'painted']));
    expect(t).not.toHaveProperty('someone-else');
    expect(Number.isInteger(t.module)).toBe(true);
    expect(t.painted).toBeGreaterThanOrEqual(t.module ?? Infinity);
  });
});

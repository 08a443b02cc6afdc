import { describe, expect, it } from 'vitest';
import { formatDuration, timeValue } from './time';
import { utf8Length } from './utf8';

describe('utf8Length', () => {
  it('counts bytes like Go', () => {
    expect(utf8Length('')).toBe(0);
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    const s = 'aé€😀\n';
    expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
  });
});

describe('time', () => {
  it('parses RFC 3339 with nanoseconds and offsets', () => {
    expect(timeValue('2026-01-01T00:00:00Z')).toBe(Date.UTC(2026, 0, 1));
    expect(timeValue('2026-01-01T01:00:00+01:00')).toBe(Date.UTC(2026, 0, 1));
    expect(timeValue('2026-01-01T00:00:00.5Z')).toBe(Date.UTC(2026, 0, 1) + 500);
    expect(timeValue('2026-01-01T00:00:00.123456789Z')).toBeCloseTo(Date.UTC(2026, 0, 1) + 123.456789, 5);
    expect(timeValue('')).toBe(0);
    expect(timeValue('garbage')).toBe(0);
  });

  it('formats durations', () => {
    expect(formatDuration(7_000)).toBe('0:07');
    expect(formatDuration(754_000)).toBe('12:34');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
  });
});

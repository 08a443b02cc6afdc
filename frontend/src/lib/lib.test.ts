// @vitest-environment happy-dom
// (trapTab moves the focus in a document; the rest is logic.)
import { describe, expect, it, vi } from 'vitest';
import { trapTab } from './focusTrap';
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

describe('trapTab', () => {
  it('keeps Shift+Tab from a select (the first field) inside the dialog, and Tab from the last button goes back to it', () => {
    document.body.innerHTML = '<button id="out">Out</button><div id="box"><select id="s"><option>a</option></select><button id="b">Keep</button></div>';
    const box = document.getElementById('box');
    const key = (shiftKey: boolean) => ({ key: 'Tab', shiftKey, preventDefault: vi.fn() });
    document.getElementById('s')!.focus();
    const back = key(true);
    trapTab(back, box);
    expect(back.preventDefault).toHaveBeenCalled();
    expect(document.activeElement?.id).toBe('b');
    trapTab(key(false), box);
    expect(document.activeElement?.id).toBe('s');
    document.getElementById('out')!.focus();
    trapTab(key(false), box);
    expect(document.activeElement?.id).toBe('s');
  });
});

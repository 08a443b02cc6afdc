import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onTick, TICK_MS, ticking } from './ticker';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the motion clock', () => {
  it('steps every listener TICK_MS apart, each from the tick it joined at', () => {
    const a: number[] = [];
    const b: number[] = [];
    const stopA = onTick((t) => a.push(t));
    vi.advanceTimersByTime(2 * TICK_MS);
    const stopB = onTick((t) => b.push(t));
    vi.advanceTimersByTime(TICK_MS);
    stopA();
    stopB();
    const [first = NaN] = a;
    expect(a).toEqual([first, first + 1, first + 2, first + 3]);
    expect(b).toEqual([first + 2, first + 3]);
  });

  it('runs only while something on the screen moves', () => {
    expect(ticking()).toBe(false);
    const stopA = onTick(() => {});
    const stopB = onTick(() => {});
    expect(ticking()).toBe(true);
    stopA();
    expect(ticking()).toBe(true);
    stopB();
    expect(ticking()).toBe(false);
    const calls = vi.fn();
    onTick(calls)();
    vi.advanceTimersByTime(10 * TICK_MS);
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('does not run for a person who asked for less motion: each shape stays at rest', () => {
    const stopOther = onTick(() => {});
    vi.advanceTimersByTime(3 * TICK_MS);
    stopOther();
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(prefers-reduced-motion: reduce)' }));
    const calls = vi.fn();
    const stop = onTick(calls);
    expect(ticking()).toBe(false);
    vi.advanceTimersByTime(10 * TICK_MS);
    expect(calls.mock.calls).toEqual([[0]]);
    stop();
  });

  it('follows the setting when it changes: at rest at once, moving again when it is changed back', () => {
    let reduce = false;
    let changed = () => {};
    vi.stubGlobal('matchMedia', () => ({
      get matches() {
        return reduce;
      },
      addEventListener: (_: string, fn: () => void) => {
        changed = fn;
      },
      removeEventListener: () => {},
    }));
    const ticks: number[] = [];
    const stop = onTick((t) => ticks.push(t));
    vi.advanceTimersByTime(2 * TICK_MS);
    reduce = true;
    changed();
    expect(ticking()).toBe(false);
    expect(ticks.at(-1)).toBe(0);
    const resting = ticks.length;
    vi.advanceTimersByTime(5 * TICK_MS);
    expect(ticks).toHaveLength(resting);
    reduce = false;
    changed();
    expect(ticking()).toBe(true);
    vi.advanceTimersByTime(TICK_MS);
    expect(ticks).toHaveLength(resting + 1);
    stop();
    expect(ticking()).toBe(false);
  });
});

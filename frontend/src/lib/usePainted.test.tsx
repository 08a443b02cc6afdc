import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUntilPainted } from './usePainted';

// The window's frames, run one at a time by the test.
let frames: FrameRequestCallback[] = [];
const runFrame = () =>
  act(() => {
    const now = frames;
    frames = [];
    now.forEach((f) => f(performance.now()));
  });

beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('useUntilPainted', () => {
  it('holds from the render that turns it on until the frame after the one that shows it', () => {
    const { result, rerender } = renderHook(({ on }) => useUntilPainted(on), { initialProps: { on: false } });
    expect(result.current).toBe(false);
    rerender({ on: true });
    expect(result.current).toBe(true);
    // The frame that shows it: not yet painted when it starts.
    runFrame();
    expect(result.current).toBe(true);
    // The next frame starts: the one before it was painted.
    runFrame();
    expect(result.current).toBe(false);
    // And stays let go while on.
    runFrame();
    rerender({ on: true });
    expect(result.current).toBe(false);
  });

  it('turned on again, it holds again until that frame is painted', () => {
    const { result, rerender } = renderHook(({ on }) => useUntilPainted(on), { initialProps: { on: true } });
    runFrame();
    runFrame();
    expect(result.current).toBe(false);
    rerender({ on: false });
    rerender({ on: true });
    expect(result.current).toBe(true);
    runFrame();
    runFrame();
    expect(result.current).toBe(false);
  });

  it('off, it holds nothing', () => {
    const { result, rerender } = renderHook(({ on }) => useUntilPainted(on), { initialProps: { on: true } });
    expect(result.current).toBe(true);
    rerender({ on: false });
    expect(result.current).toBe(false);
  });
});

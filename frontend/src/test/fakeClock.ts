// A fake clock for tests of what waits (a debounce, a delay): the time passes
// only when the test advances it, never because the machine was busy.
import userEvent from '@testing-library/user-event';
import { onTestFinished, vi } from 'vitest';

/**
 * Fakes setTimeout and clearTimeout until the test ends. Testing Library's
 * waitFor and findBy* advance the clock as they wait (they look for Jest's,
 * hence the stub); the user this returns types with no time between keys.
 */
export function fakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  onTestFinished(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  return userEvent.setup({ delay: null });
}

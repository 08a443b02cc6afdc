import { vi } from 'vitest';

/**
 * Replaces navigator.clipboard with one whose writeText is a mock. Call it
 * after userEvent.setup(), which installs its own clipboard.
 */
export function mockClipboard(fail = false) {
  const writeText = vi.fn(async (_text: string) => {
    if (fail) throw new Error('denied');
  });
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
  return writeText;
}

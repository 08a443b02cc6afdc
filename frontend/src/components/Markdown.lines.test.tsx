// A long paragraph that streams has the lines it filled set apart in
// blocks of their own (LeadParagraph). happy-dom lays nothing out: here
// the paragraph is always tall enough, and its lines start every LINE
// characters of the width, at the next word.
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../lib/lineStart', () => ({
  // The start of the word after (width / 2) characters, unless too near the end.
  lineStartBefore: (el: HTMLElement) => {
    const text = el.textContent ?? '';
    const at = text.indexOf(' ', width / 2) + 1;
    return at > 0 && at < text.length - 200 ? at : -1;
  },
}));

import { Markdown } from './Markdown';

let width = 1200;
const saved: Record<string, PropertyDescriptor | undefined> = {};

beforeEach(() => {
  width = 1200;
  for (const [name, get] of [
    ['offsetHeight', () => 5000],
    ['clientWidth', () => width],
  ] as const) {
    saved[name] = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name);
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get });
  }
});

afterEach(() => {
  for (const [name, d] of Object.entries(saved)) if (d) Object.defineProperty(HTMLElement.prototype, name, d);
});

/** Lets the pending animation frame render the streaming block. */
async function nextFrame() {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

/** A paragraph of numbered words, about n characters long. */
const words = (n: number) => Array.from({ length: Math.ceil(n / 5) }, (_, i) => `w${i + 1}`).join(' ');

/** The paragraph's blocks set apart, as texts (the last is the lines still filling). */
function blocks(container: HTMLElement): string[] {
  return Array.from(container.querySelectorAll('p.md-set-apart > .md-lines'), (el) => el.textContent ?? '');
}

describe('a long paragraph while it streams', () => {
  it('is set apart in blocks that hold its text, each cut where a line starts, and is one paragraph once complete', async () => {
    const text = words(4000);
    const { container, rerender } = render(<Markdown text={text} streaming />);
    await nextFrame();
    const set = blocks(container);
    expect(set.length).toBeGreaterThan(3);
    expect(set.join('')).toBe(text);
    for (const b of set.slice(0, -1)) expect(b).toMatch(/^w\d+ .* $/);
    expect(set[0]!.length).toBeGreaterThan(600);
    expect(set[0]!.length).toBeLessThan(620);

    rerender(<Markdown text={text} />);
    await nextFrame();
    expect(container.querySelectorAll('.md-lines')).toHaveLength(0);
    expect(container.querySelector('p')!.textContent).toBe(text);
  });

  it('is set apart again at a new width', async () => {
    const text = words(4000);
    const { container, rerender } = render(<Markdown text={text} streaming />);
    await nextFrame();
    expect(blocks(container)[0]!.length).toBeGreaterThan(600);

    width = 800;
    const more = `${text} ${words(400)}`;
    rerender(<Markdown text={more} streaming />);
    await nextFrame();
    const set = blocks(container);
    expect(set.join('')).toBe(more);
    expect(set[0]!.length).toBeGreaterThan(400);
    expect(set[0]!.length).toBeLessThan(420);
  });
});

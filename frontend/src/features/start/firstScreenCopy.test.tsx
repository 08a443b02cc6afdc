import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../test/fixtures';
import { captureFirstScreen, showWhenReady } from './firstScreenCopy';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

function rootWith(html: string): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = html;
  document.body.append(root);
  return root;
}

/** The markup captured, as a DOM to look into. */
function copyOf(root: HTMLElement): HTMLElement {
  const copy = document.createElement('div');
  copy.innerHTML = captureFirstScreen(root);
  return copy;
}

describe('captureFirstScreen', () => {
  it('keeps what the fields hold: typed text, a checked box, the chosen option', () => {
    const root = rootWith(
      '<textarea></textarea><input type="text"><input type="checkbox"><select><option>a</option><option>b</option></select>',
    );
    root.querySelector('textarea')!.value = 'a draft';
    root.querySelector<HTMLInputElement>('input[type="text"]')!.value = 'typed';
    root.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked = true;
    root.querySelector('select')!.value = 'b';

    const copy = copyOf(root);
    expect(copy.querySelector('textarea')!.textContent).toBe('a draft');
    expect(copy.querySelector('input[type="text"]')!.getAttribute('value')).toBe('typed');
    expect(copy.querySelector('input[type="checkbox"]')!.hasAttribute('checked')).toBe(true);
    expect([...copy.querySelectorAll('option')].map((o) => o.hasAttribute('selected'))).toEqual([false, true]);
  });

  it('marks a scrolled element with its scroll position, and only a scrolled one', () => {
    const root = rootWith('<div class="scrolled"><p>long</p></div><div class="still"></div>');
    const scrolled = root.querySelector<HTMLElement>('.scrolled')!;
    scrolled.scrollTop = 340;
    scrolled.scrollLeft = 12;

    const copy = copyOf(root);
    expect(copy.querySelector('.scrolled')!.getAttribute('data-snap-top')).toBe('340');
    expect(copy.querySelector('.scrolled')!.getAttribute('data-snap-left')).toBe('12');
    expect(copy.querySelector('.still')!.hasAttribute('data-snap-top')).toBe(false);
  });

  it('leaves out what is marked data-no-snapshot, with what is inside it', () => {
    const root = rootWith('<main>kept<div data-no-snapshot><span>a toast</span></div></main>');
    const html = captureFirstScreen(root);
    expect(html).toContain('kept');
    expect(html).not.toContain('a toast');
    expect(root.textContent).toContain('a toast'); // the window itself is untouched
  });
});

describe("index.html's restore script", () => {
  const page = readFileSync(resolve(__dirname, '../../../index.html'), 'utf8');
  const script = /<script>([\s\S]*?)<\/script>\s*<div id="root"><\/div>\s*<!--first-screen-->/.exec(page)?.[1] ?? '';

  /** The page as Go serves it with a copy, once parsed. */
  function injectCopy(width: number, height: number): HTMLElement {
    document.body.innerHTML = '';
    new Function(script)();
    document.body.innerHTML =
      `<div id="root"></div><div id="first-screen" inert aria-hidden="true" data-width="${width}" data-height="${height}">` +
      '<div class="scroller" data-snap-top="120" data-snap-left="8"><p>the last first screen</p></div></div>';
    document.dispatchEvent(new Event('readystatechange'));
    return document.body;
  }

  it('comes before the marker Go replaces, and shows the copy only once the page is parsed', () => {
    expect(script).toContain('first-screen');
    document.body.innerHTML = '';
    new Function(script)();
    document.body.innerHTML = '<div id="root"></div><div id="first-screen" data-width="1" data-height="1"></div>';
    expect(document.getElementById('first-screen')).not.toBeNull(); // nothing ran yet
    document.dispatchEvent(new Event('readystatechange'));
    expect(document.getElementById('first-screen')).toBeNull();
  });

  it('removes a copy taken at another window size', () => {
    const body = injectCopy(innerWidth + 100, innerHeight);
    expect(body.querySelector('#first-screen')).toBeNull();
  });

  it('shows a copy of the same size, scrolled as it was', () => {
    const body = injectCopy(innerWidth, innerHeight);
    const copy = body.querySelector<HTMLElement>('#first-screen')!;
    expect(copy.hasAttribute('data-shown')).toBe(true);
    const scroller = copy.querySelector<HTMLElement>('.scroller')!;
    expect(scroller.scrollTop).toBe(120);
    expect(scroller.scrollLeft).toBe(8);
  });

  it('removes the copy after 10 s if the app has not taken over', () => {
    vi.useFakeTimers();
    try {
      const body = injectCopy(innerWidth, innerHeight);
      vi.advanceTimersByTime(9_999);
      expect(body.querySelector('#first-screen')).not.toBeNull();
      vi.advanceTimersByTime(1);
      expect(body.querySelector('#first-screen')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing when there is no copy', () => {
    document.body.innerHTML = '<div id="root"></div>';
    new Function(script)();
    expect(() => document.dispatchEvent(new Event('readystatechange'))).not.toThrow();
    expect(document.body.innerHTML).toBe('<div id="root"></div>');
  });
});

describe('showWhenReady', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  function withCopy() {
    document.body.innerHTML = '<div id="root"></div><div id="first-screen" data-shown></div>';
    const copied = () => document.getElementById('first-screen') !== null;
    const renders: boolean[] = []; // whether the copy was still there at each render
    return { copied, renders, render: () => renders.push(copied()) };
  }

  it('keeps the copy over the shell, and removes it once the first screen has rendered', async () => {
    const { copied, renders, render } = withCopy();
    const ready = deferred<void>();
    showWhenReady(ready.promise, render, 1000);

    vi.advanceTimersByTime(1000);
    expect(renders).toEqual([true]);
    expect(copied()).toBe(true);

    ready.resolve();
    await vi.advanceTimersByTimeAsync(50); // the copy's frame
    expect(renders).toEqual([true, true]);
    expect(copied()).toBe(false);
  });

  it('renders the first screen once the copy is painted, then removes the copy', async () => {
    const { copied, renders, render } = withCopy();
    const ready = Promise.resolve();
    showWhenReady(ready, render, 1000);
    await ready;
    await Promise.resolve();
    expect(renders).toEqual([]); // the copy's frame comes first
    await vi.advanceTimersByTimeAsync(50);
    expect(renders).toEqual([true]);
    expect(copied()).toBe(false);
  });

  it('renders at once when there is no copy', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    const render = vi.fn();
    const ready = Promise.resolve();
    showWhenReady(ready, render, 1000);
    await ready;
    await Promise.resolve();
    await Promise.resolve();
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('removes the copy when the first screen failed', async () => {
    const { copied, render } = withCopy();
    const ready = Promise.reject(new Error('no first screen'));
    showWhenReady(ready, render, 1000);
    await ready.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(50);
    expect(copied()).toBe(false);
  });
});

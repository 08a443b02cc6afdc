import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

afterEach(() => {
  cleanup();
});

// waitFor and findBy* wait for a condition; their 1 s default was lost on
// a loaded machine. The bound is one only a broken test reaches (under
// vitest's 60 s testTimeout, so the failure names the condition).
configure({ asyncUtilTimeout: 30_000 });

// jsdom has no layout, so every element is 0×0. Give the transcript's and
// the conversation list's scrollers an 800 px viewport and a scroll height (its content's declared
// height) so that its virtualized list renders rows and can scroll.
const isScroller = (el: Element) =>
  el.classList?.contains('message-scroll') || el.classList?.contains('conv-list-wrap');
for (const prop of ['clientHeight', 'clientWidth'] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      return isScroller(this) ? 800 : 0;
    },
  });
}
Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
  configurable: true,
  get(this: HTMLElement) {
    if (!isScroller(this)) return 0;
    const h = parseFloat((this.firstElementChild as HTMLElement | null)?.style.height ?? '');
    return Math.max(800, Number.isFinite(h) ? h : 0);
  },
});
if (typeof Element.prototype.scrollTo !== 'function') {
  Element.prototype.scrollTo = function scrollTo(this: Element, a?: ScrollToOptions | number, b?: number) {
    const top = typeof a === 'number' ? b : a?.top;
    if (typeof top === 'number') {
      this.scrollTop = top;
      this.dispatchEvent(new Event('scroll'));
    }
  } as Element['scrollTo'];
}

// One fake of the API and of the events module for every test file (see
// fakeApi.ts); a test that needs the real module says vi.unmock.
vi.mock('../api', async (importOriginal) => (await import('./fakeApi')).fakeApi(await importOriginal()));
vi.mock('../events', async (importOriginal) => (await import('./fakeApi')).fakeEvents(await importOriginal()));

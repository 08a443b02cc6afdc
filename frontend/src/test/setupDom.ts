// The component tests (*.test.tsx, in a DOM): Testing Library, its matchers and
// cleanup, the lazy views loaded, and the layout the DOM lacks.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { preloadLazyViews } from '../components/LazyView';

afterEach(() => {
  cleanup();
});

// waitFor and findBy* wait for a condition; their limit is one only a hung
// test reaches (Testing Library's 1 s default was reached on a loaded 2-core
// machine by a module loaded on demand), like vitest's testTimeout.
configure({ asyncUtilTimeout: 30_000 });

// The views the window loads on first use (LazyView) are loaded before the
// tests, which render them at once (LazyView.test.tsx shows the loading).
beforeAll(() => preloadLazyViews());

// The test DOM has no layout, so every element is 0×0. Give the transcript's and
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
// Scrolling says so with a scroll event, as in a browser (the DOM's own
// scrollTo, where it has one, sets the position silently).
Element.prototype.scrollTo = function scrollTo(this: Element, a?: ScrollToOptions | number, b?: number) {
  const top = typeof a === 'number' ? b : a?.top;
  if (typeof top === 'number') {
    this.scrollTop = top;
    this.dispatchEvent(new Event('scroll'));
  }
} as Element['scrollTo'];

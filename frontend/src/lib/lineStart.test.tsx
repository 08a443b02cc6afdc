// lineStartBefore reads where lines start from the layout. jsdom lays
// nothing out, so these tests give Range a layout of their own: the text
// under the element wraps at word ends into lines of at most WIDTH
// characters, 20 px apart, as a browser's greedy line breaking does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lineStartBefore } from './lineStart';

const WIDTH = 40;
const LINE = 20;

/** The offsets at which the lines of text start (words broken only when longer than a line). */
function wrap(text: string): number[] {
  const starts = [0];
  let start = 0;
  for (const m of text.matchAll(/\S+/g)) {
    const at = m.index;
    const end = at + m[0].length;
    if (end - start > WIDTH && at > start) starts.push((start = at));
    // A word longer than a line is broken anywhere.
    while (end - start > WIDTH) starts.push((start += WIDTH));
  }
  return starts;
}

let el: HTMLElement;

/** The element's text, laid out by wrap(). */
function layout() {
  const texts: Text[] = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) texts.push(n as Text);
  const joined = texts.map((t) => t.data).join('');
  const starts = wrap(joined);
  const lineOf = (i: number) => starts.filter((s) => s <= i).length - 1;
  const offsetOf = (node: Node, offset: number) => {
    let at = 0;
    for (const t of texts) {
      if (t === node) return at + offset;
      at += t.data.length;
    }
    throw new Error('not a text node of the element');
  };
  return { starts, lineOf, offsetOf };
}

/** A glyph's box on the line whose top is top: 16 px tall, a CJK glyph's (a fallback font's) 6 px taller and higher. */
function rect(top: number, tall = false): DOMRect {
  const t = tall ? top - 3 : top + 2;
  const height = tall ? 22 : 16;
  return { top: t, bottom: t + height, left: 0, right: 1, width: 1, height, x: 0, y: t, toJSON: () => ({}) } as DOMRect;
}

const CJK = /[\u4e00-\u9fff]/;

beforeEach(() => {
  el = document.createElement('span');
  document.body.append(el);
  vi.spyOn(Range.prototype, 'getClientRects').mockImplementation(function (this: Range) {
    const { starts, lineOf, offsetOf } = layout();
    if (this.startContainer === el) {
      // A box per line, and one more for each CJK glyph (a run in another font).
      const text = el.textContent ?? '';
      const glyphs = Array.from(text.matchAll(new RegExp(CJK, 'g')), (m) => rect(lineOf(m.index) * LINE, true));
      return [...starts.map((_, i) => rect(i * LINE)), ...glyphs] as unknown as DOMRectList;
    }
    const at = offsetOf(this.startContainer, this.startOffset);
    const tall = CJK.test((this.startContainer as Text).data[this.startOffset] ?? '');
    return [rect(lineOf(at) * LINE, tall)] as unknown as DOMRectList;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  el.remove();
});

/** A paragraph of numbered words. */
function words(n: number): string {
  return Array.from({ length: n }, (_, i) => `word${i + 1}`).join(' ');
}

describe('lineStartBefore', () => {
  it('finds where the line `back` lines above the last starts, after a space', () => {
    el.textContent = words(60);
    const starts = wrap(el.textContent);
    expect(starts.length).toBeGreaterThan(6);
    const at = lineStartBefore(el, 3);
    expect(at).toBe(starts[starts.length - 4]);
    expect(el.textContent[at - 1]).toBe(' ');
    expect(el.textContent.slice(at)).toMatch(/^word\d+ /);
  });

  it('reads across the text nodes of the chunks a long text is shown in', () => {
    const text = words(80);
    const cuts = [0, 97, 251, 400, text.length];
    el.append(...cuts.slice(1).map((end, i) => document.createTextNode(text.slice(cuts[i], end))));
    const starts = wrap(text);
    expect(lineStartBefore(el, 2)).toBe(starts[starts.length - 3]);
  });

  it('counts a line whose glyphs stand at different heights once, and finds where it starts', () => {
    // CJK words (a fallback font's taller boxes) among the Latin ones.
    el.textContent = Array.from({ length: 60 }, (_, i) => (i % 3 === 1 ? `字${i}字` : `word${i + 1}`)).join(' ');
    const starts = wrap(el.textContent);
    expect(starts.length).toBeGreaterThan(6);
    expect(lineStartBefore(el, 3)).toBe(starts[starts.length - 4]);
  });

  it('finds nothing in a text of too few lines', () => {
    el.textContent = words(12);
    expect(wrap(el.textContent).length).toBeLessThan(5);
    expect(lineStartBefore(el, 3)).toBe(-1);
  });

  it('finds nothing where the line starts inside a word too long for a line', () => {
    el.textContent = `${words(10)} ${'x'.repeat(WIDTH * 6)} end`;
    const starts = wrap(el.textContent);
    const at = starts[starts.length - 3]!;
    expect(el.textContent[at - 1]).toBe('x');
    expect(lineStartBefore(el, 2)).toBe(-1);
  });
});

// Where the lines of laid-out text start, read from the page's layout.

/** The text under el, its text nodes joined: its length, and where offset i of it is (a node and an offset in it). */
function joinedText(el: Node): { length: number; at: (i: number) => [Text, number] } {
  const nodes: Text[] = [];
  const starts: number[] = [];
  let length = 0;
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n as Text;
    nodes.push(t);
    starts.push(length);
    length += t.data.length;
  }
  const at = (i: number): [Text, number] => {
    let k = starts.length - 1;
    while (starts[k]! > i) k--;
    return [nodes[k]!, i - starts[k]!];
  };
  return { length, at };
}

/** The middle of a box, top to bottom. */
const middle = (r: DOMRect) => (r.top + r.bottom) / 2;

/**
 * Where the lines the text under el is laid out in begin, top first: the
 * top of each line's highest box. A line's boxes can stand at different
 * heights (a glyph from a fallback font, inline code), so boxes are one
 * line while each one's middle is above the bottom of those before it.
 */
function lineTops(el: Node): number[] {
  const range = document.createRange();
  range.selectNodeContents(el);
  const boxes = Array.from(range.getClientRects()).sort((a, b) => middle(a) - middle(b));
  const tops: number[] = [];
  let bottom = -Infinity;
  for (const r of boxes) {
    if (middle(r) > bottom) tops.push(r.top);
    else tops[tops.length - 1] = Math.min(tops[tops.length - 1]!, r.top);
    bottom = middle(r) > bottom ? r.bottom : Math.max(bottom, r.bottom);
  }
  return tops;
}

/**
 * The offset, in the text under el (its text nodes joined), of the first
 * character of the line `back` lines above its last; -1 when it has no such
 * line, or that line does not begin a word after a space (a long word
 * broken anywhere). Reads the layout: costs a layout, then a few rectangles.
 */
export function lineStartBefore(el: HTMLElement, back: number): number {
  const tops = lineTops(el);
  if (tops.length < back + 2) return -1;
  const target = tops[tops.length - 1 - back]!;
  const { length, at: textAt } = joinedText(el);
  const range = document.createRange();
  // The middle of the box of the character at offset i (NaN for a
  // collapsed space, which has none): below the target line's top on
  // that line and those after it, above it on those before.
  const middleAt = (i: number): number => {
    const [node, offset] = textAt(i);
    range.setStart(node, offset);
    range.setEnd(node, offset + 1);
    const r = range.getClientRects()[0];
    return r ? middle(r) : NaN;
  };
  // The first character whose line is at or below the target's.
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    let at = mid;
    let m = middleAt(at);
    while (Number.isNaN(m) && at + 1 < hi) m = middleAt(++at);
    if (!Number.isNaN(m) && m >= target) hi = mid;
    else lo = at + 1;
  }
  if (lo <= 0 || lo >= length) return -1;
  const char = (i: number) => {
    const [node, offset] = textAt(i);
    return node.data[offset];
  };
  return char(lo - 1) === ' ' && char(lo) !== ' ' ? lo : -1;
}

// Which blocks of a long reply are in the page: only those near the
// viewport (a 5 MB reply has about 50,000 blocks, and a page holding all of
// them makes every frame, and so Stop, slow). The others are held by two
// spacers as tall as the blocks they stand for: measured once a block has
// been shown, estimated from its text before. Unit-tested.

import type { BlockSplit } from './markdownBlocks';

/** A message with more blocks than this renders only those near the viewport. */
export const WINDOW_BLOCKS = 120;
/** Pixels above and below the viewport whose blocks are rendered as well. */
export const OVERSCAN_PX = 1200;

/** Layout guesses for a block not yet measured (the body font of the transcript). */
const LINE_PX = 22;
const CHAR_PX = 7.6;
const BLOCK_GAP_PX = 10;

/** A block's estimated height at this width: its lines, each wrapped at the width. */
export function estimateBlock(text: string, width: number): number {
  const perLine = Math.max(20, Math.floor(width / CHAR_PX));
  let lines = 0;
  for (let from = 0; from <= text.length; ) {
    const nl = text.indexOf('\n', from);
    const len = (nl < 0 ? text.length : nl) - from;
    lines += Math.max(1, Math.ceil(len / perLine));
    if (nl < 0) break;
    from = nl + 1;
  }
  // A fence's opening and closing lines are its header and padding.
  return lines * LINE_PX + BLOCK_GAP_PX;
}

/** The first index i with tops[i] > y (tops ascending); tops.length if none. */
function firstAbove(tops: readonly number[], y: number): number {
  let lo = 0;
  let hi = tops.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tops[mid]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface BlockRange {
  /** The first block rendered. */
  first: number;
  /** One past the last block rendered. */
  end: number;
}

/**
 * The blocks that overlap the span [top, bottom) of the message (pixels
 * from its top), given the blocks' tops (BlockHeights.tops): those whose start is
 * before bottom and whose end is after top.
 */
export function visibleBlocks(tops: readonly number[], top: number, bottom: number): BlockRange {
  const n = tops.length - 1;
  if (n <= 0) return { first: 0, end: 0 };
  const first = Math.min(n - 1, Math.max(0, firstAbove(tops, top) - 1));
  const end = Math.min(n, Math.max(first, firstAbove(tops, bottom - 1e-6)));
  return { first, end: Math.max(end, Math.min(n, first + 1)) };
}

/** Per block: the height measured when it was last shown (0: never shown), by the block's text. */
export class BlockHeights {
  private measured: number[] = [];
  private texts: string[] = [];
  private estimates: number[] = [];
  private width = 0;
  /** The answer: tops[i] is where block i starts, tops[count] the height of all count blocks. */
  private out: number[] = [0];
  /** What the answer is for. */
  private last: { split: BlockSplit; count: number } | null = null;
  /** The first block measured differently since. */
  private changedFrom = Infinity;

  /**
   * Where each of the first count blocks starts, and (at count) where
   * they end: by their heights, measured, else estimated at this width.
   * Only the blocks after those the split shares with the one last asked
   * about (and after the first measured differently since) are read: a
   * render of a 5 MB reply (about 50,000 blocks) read them all, each
   * frame while it streamed. The array is this object's, updated in place.
   */
  tops(split: BlockSplit, count: number, width: number): readonly number[] {
    if (width !== this.width) {
      this.width = width;
      this.estimates = [];
      this.last = null;
    }
    const last = this.last;
    const same = !last ? 0 : last.split === split ? last.count : split.sameUpTo(last.split);
    const from = Math.min(same, count, this.changedFrom);
    const tops = this.out;
    tops.length = from + 1;
    for (let i = from; i < count; i++) {
      const text = split.block(i);
      if (this.texts[i] !== text) {
        this.texts[i] = text;
        this.measured[i] = 0;
        this.estimates[i] = 0;
      }
      tops.push(tops[i]! + (this.measured[i] || (this.estimates[i] ||= estimateBlock(text, width))));
    }
    this.last = { split, count };
    this.changedFrom = Infinity;
    return tops;
  }

  /** Records a block's measured height; returns by how much it differs from what was assumed. */
  measure(i: number, text: string, height: number): number {
    if (this.texts[i] !== text) return 0;
    const before = this.measured[i] || this.estimates[i] || estimateBlock(text, this.width);
    this.measured[i] = height;
    if (height !== before) this.changedFrom = Math.min(this.changedFrom, i);
    return height - before;
  }
}

/** Where each match of query starts in text, case-insensitive (at most limit). */
export function findAll(text: string, query: string, limit = 10_000): number[] {
  const q = query.toLowerCase();
  if (q === '') return [];
  const hay = text.toLowerCase();
  const out: number[] = [];
  for (let at = hay.indexOf(q); at >= 0 && out.length < limit; at = hay.indexOf(q, at + q.length)) out.push(at);
  return out;
}

/** The block that holds the character at offset, given where each block starts. */
export function blockAt(starts: readonly number[], offset: number): number {
  return Math.max(0, firstAbove(starts, offset) - 1);
}

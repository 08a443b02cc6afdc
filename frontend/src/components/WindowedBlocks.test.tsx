// A long reply renders only its blocks near the viewport; copying it copies
// the whole stored text, and "Find in this reply" brings a match far down
// into the page.
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClipboard } from '../test/clipboard';
import { TranscriptItemView } from '../features/chat/TranscriptItemView';
import { BlockHeights, blockAt, findAll, visibleBlocks, WINDOW_BLOCKS } from './blockWindow';
import { Markdown } from './Markdown';
import { splitAppended, splitBlocks } from './markdownBlocks';

/** Where each block starts, and (last) where they end, given their heights. */
const topsOf = (heights: number[]) => heights.reduce((tops, h) => [...tops, tops[tops.length - 1]! + h], [0]);
/** The heights of the blocks, given where they start. */
const heightsOf = (tops: readonly number[]) => tops.slice(1).map((t, i) => t - tops[i]!);

describe('which blocks render', () => {
  // 100 blocks of 20 px: block i spans [20 i, 20 i + 20).
  const tops = topsOf(Array.from({ length: 100 }, () => 20));

  it('the blocks that overlap the viewport, and no others', () => {
    expect(visibleBlocks(tops, 400, 600)).toEqual({ first: 20, end: 30 });
    expect(visibleBlocks(tops, 410, 590)).toEqual({ first: 20, end: 30 });
    expect(visibleBlocks(tops, 0, 45)).toEqual({ first: 0, end: 3 });
  });

  it('a viewport above or past the message still renders its nearest block', () => {
    expect(visibleBlocks(tops, -500, -100)).toEqual({ first: 0, end: 1 });
    expect(visibleBlocks(tops, 5000, 6000)).toEqual({ first: 99, end: 100 });
    expect(visibleBlocks(topsOf([]), 0, 100)).toEqual({ first: 0, end: 0 });
  });

  it('a measured height replaces the estimate; a block whose text changed is estimated again', () => {
    const sizes = new BlockHeights();
    const [a, b] = heightsOf(sizes.tops(splitBlocks('one\n\ntwo\nlines\n\nthree'), 3, 700));
    expect(b).toBeGreaterThan(a!);
    expect(sizes.measure(1, 'two\nlines', 100)).toBe(100 - b!);
    expect(heightsOf(sizes.tops(splitBlocks('one\n\ntwo\nlines\n\nthree'), 3, 700))[1]).toBe(100);
    expect(heightsOf(sizes.tops(splitBlocks('one\n\ntwo\n\nthree'), 3, 700))[1]).toBe(a);
    expect(sizes.tops(splitBlocks('one\n\ntwo\n\nthree'), 2, 700)).toHaveLength(3);
  });

  it('a split grown from the last one reads only the blocks it does not share with it', () => {
    const sizes = new BlockHeights();
    const text = Array.from({ length: 1000 }, (_, i) => `Paragraph ${i}.`).join('\n\n');
    const split = splitBlocks(text);
    sizes.tops(split, split.count - 1, 700);
    const grown = splitAppended(`${text}\n\nOne more.\n\nAnd`, split, '\n\nOne more.\n\nAnd');
    const read = vi.spyOn(grown, 'block');
    const tops = [...sizes.tops(grown, grown.count - 1, 700)];
    expect(read.mock.calls.length).toBeLessThan(5);
    const whole = splitBlocks(grown.text);
    expect(tops).toEqual(new BlockHeights().tops(whole, whole.count - 1, 700));
    // A block measured differently moves the blocks after it, not those before.
    const h = tops[501]! - tops[500]!;
    sizes.measure(500, grown.block(500), h + 40);
    const after = sizes.tops(grown, grown.count - 1, 700);
    expect(after[500]).toBe(tops[500]);
    expect(after[after.length - 1]).toBe(tops[tops.length - 1]! + 40);
    // Another width: estimated again.
    expect(sizes.tops(grown, grown.count - 1, 350)[1]).toBeGreaterThanOrEqual(tops[1]!);
  });

  it('a match is found in the stored text, and in its block', () => {
    expect(findAll('Alpha beta ALPHA', 'alpha')).toEqual([0, 11]);
    expect(blockAt([0, 10, 25], 0)).toBe(0);
    expect(blockAt([0, 10, 25], 12)).toBe(1);
    expect(blockAt([0, 10, 25], 99)).toBe(2);
  });
});

const N = 2000;
const LONG = Array.from({ length: N }, (_, i) => `Paragraph ${i} of the reply.`).join('\n\n');

// The test DOM has no layout: the scroller is an 800 px viewport at the top of the
// page, and the reply starts at its top, moved up by what is scrolled.
let scroller: HTMLDivElement;
beforeEach(() => {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const top = this.classList.contains('md-windowed') ? -(scroller?.scrollTop ?? 0) : 0;
    return { top, bottom: top, left: 0, right: 0, width: 0, height: 0, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
  });
});
afterEach(() => vi.restoreAllMocks());

function renderInScroller(ui: React.ReactElement) {
  const r = render(
    <div className="message-scroll" style={{ overflowY: 'auto' }}>
      {ui}
    </div>,
  );
  scroller = r.container.querySelector('.message-scroll')!;
  return r;
}

/** Scrolls the transcript to top (px) and lets the frame that follows it render. */
async function scrollTo(top: number) {
  scroller.scrollTop = top;
  await act(async () => {
    scroller.dispatchEvent(new Event('scroll'));
    await new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  });
}

describe('a long reply', () => {
  it('renders only the blocks near the viewport, and the others as you scroll to them', async () => {
    renderInScroller(<Markdown text={LONG} />);
    const shown = () => document.querySelectorAll('.md-block').length;
    expect(shown()).toBeGreaterThan(1);
    expect(shown()).toBeLessThan(N / 10);
    expect(screen.getByText('Paragraph 0 of the reply.')).toBeInTheDocument();
    expect(screen.queryByText('Paragraph 1000 of the reply.')).toBeNull();
    // The last block is always there (it is the one that streams).
    expect(screen.getByText(`Paragraph ${N - 1} of the reply.`)).toBeInTheDocument();

    // Half way down (each block is estimated at the same height).
    const below = document.querySelectorAll<HTMLElement>('.md-spacer')[1]!;
    await scrollTo(parseFloat(below.style.height) / 2);
    expect(screen.getByText('Paragraph 1000 of the reply.')).toBeInTheDocument();
    expect(screen.queryByText('Paragraph 0 of the reply.')).toBeNull();
    expect(shown()).toBeLessThan(N / 10);
  });

  it('at its end while the transcript follows it, the blocks it completes render as it grows', async () => {
    const { rerender } = renderInScroller(<Markdown text={LONG} streaming />);
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 200_000 });
    await scrollTo(200_000);
    const more = Array.from({ length: 50 }, (_, i) => `Paragraph ${N + i} of the reply.`).join('\n\n');
    rerender(
      <div className="message-scroll" style={{ overflowY: 'auto' }}>
        <Markdown text={`${LONG}\n\n${more}`} streaming />
      </div>,
    );
    // In the render that grew it, with no scroll or frame since: the view
    // shows the end, and the blocks just above the growing one are there.
    expect(screen.getByText(`Paragraph ${N + 40} of the reply.`)).toBeInTheDocument();
    expect(screen.getByText(`Paragraph ${N + 48} of the reply.`)).toBeInTheDocument();
    expect(screen.queryByText('Paragraph 0 of the reply.')).toBeNull();
  });

  it('a short reply renders every block, without the window', () => {
    const text = Array.from({ length: WINDOW_BLOCKS }, (_, i) => `Line ${i}.`).join('\n\n');
    const { container } = renderInScroller(<Markdown text={text} />);
    expect(container.querySelector('.md-windowed')).toBeNull();
    expect(screen.getByText(`Line ${WINDOW_BLOCKS - 1}.`)).toBeInTheDocument();
  });

  it('Copy message copies the whole stored text, not what is in the page', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    renderInScroller(
      <TranscriptItemView
        conversationId="c"
        item={{ kind: 'agent', key: 'm', text: LONG, step: 0, streaming: false, taskId: '' }}
      />,
    );
    expect(screen.queryByText('Paragraph 1500 of the reply.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Copy message' }));
    expect(writeText).toHaveBeenCalledWith(LONG);
  });

  it('Find in this reply searches the stored text and brings the match into the page', async () => {
    const user = userEvent.setup();
    const text = LONG.replace('Paragraph 1700 of the reply.', 'Paragraph 1700 holds the needle.');
    renderInScroller(<Markdown text={text} />);
    expect(screen.queryByText('Paragraph 1700 holds the needle.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Find in this reply' }));
    await user.type(screen.getByRole('searchbox', { name: 'Find in this reply' }), 'needle');
    expect(screen.getByText('1 of 1')).toBeInTheDocument();
    expect(screen.getByText('Paragraph 1700 holds the needle.')).toBeInTheDocument();
    expect(screen.getByText('Paragraph 1700 holds the needle.').closest('.md-block')).toHaveClass('md-block-found');

    await user.clear(screen.getByRole('searchbox', { name: 'Find in this reply' }));
    await user.type(screen.getByRole('searchbox', { name: 'Find in this reply' }), 'no such words');
    expect(screen.getByText('No matches')).toBeInTheDocument();
  });

  it('Ctrl+F with the reply in view opens its find', async () => {
    const user = userEvent.setup();
    renderInScroller(<Markdown text={LONG} />);
    await user.keyboard('{Control>}f{/Control}');
    expect(screen.getByRole('searchbox', { name: 'Find in this reply' })).toHaveFocus();
  });
});

describe('a block above the view that measures differently', () => {
  let resized: ResizeObserverCallback = () => {};
  beforeEach(() => {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: ResizeObserverCallback) {
          resized = cb;
        }
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  /** The first rendered block (above the view: the test DOM puts every block at the top) measures 1 px. */
  function firstBlockMeasures1px() {
    const el = document.querySelector<HTMLElement>('.md-block')!;
    const entry = { target: el, borderBoxSize: [{ blockSize: 1, inlineSize: 0 }] } as unknown as ResizeObserverEntry;
    act(() => resized([entry], {} as ResizeObserver));
  }

  it('moves the view with it, so what is read stays in place', () => {
    renderInScroller(<Markdown text={LONG} />);
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 100_000 });
    scroller.scrollTop = 5_000;
    firstBlockMeasures1px();
    expect(scroller.scrollTop).toBeLessThan(5_000);
  });

  it('leaves a view at the end there, where the transcript follows the latest text', () => {
    renderInScroller(<Markdown text={LONG} />);
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 100_000 });
    scroller.scrollTop = 100_000 - 800;
    firstBlockMeasures1px();
    expect(scroller.scrollTop).toBe(100_000 - 800);
  });
});

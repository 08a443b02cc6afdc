// A long reply, rendered only near the viewport (blockWindow.ts): the
// blocks in view and OVERSCAN_PX around them are in the page, the others
// are two spacers as tall as what they stand for. A block's height is
// measured when it is shown, and a block above the viewport that turns out
// taller or shorter than assumed moves the scroll position by as much, so
// what the person reads stays where it is. Copying the message copies its
// stored text (the message's Copy button); "Find in this reply" searches
// that text and brings each match's block into view.
import { memo, startTransition, useCallback, useEffect, useId, useLayoutEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import { nearEnd } from '../lib/scrollEnd';
import { BlockHeights, blockAt, findAll, OVERSCAN_PX, visibleBlocks } from './blockWindow';
import type { BlockSplit } from './markdownBlocks';

/**
 * The transcript's scroller, else the nearest ancestor that scrolls
 * vertically, if any (an ancestor that only scrolls sideways, such as a
 * wide bubble, computes overflow-y: auto too, so the transcript is asked for first).
 */
function scrollParent(el: HTMLElement): HTMLElement | null {
  const transcript = el.closest<HTMLElement>('.message-scroll');
  if (transcript) return transcript;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return null;
}

interface View {
  top: number;
  bottom: number;
  /** The transcript follows the reply's end, which is in view. */
  atEnd?: boolean;
}

/**
 * The span of the reply to render around: a view at the end stays at the
 * end however much the reply grew since it was measured, so the blocks a
 * fast reply completes are rendered with its growth, not a frame (or, while
 * every frame brings more, many frames) after it.
 */
function spanOf(view: View, tops: readonly number[]): View {
  if (!view.atEnd) return view;
  const end = tops[tops.length - 1]!;
  return { top: end - (view.bottom - view.top), bottom: end };
}

/** The blocks to render for a view: those in its span and OVERSCAN_PX around it. */
function rangeOf(view: View, tops: readonly number[]) {
  const span = spanOf(view, tops);
  return visibleBlocks(tops, span.top - OVERSCAN_PX, span.bottom + OVERSCAN_PX);
}

/** The part of el (pixels from its top) that the scroller (or the window) shows. */
function viewOf(el: HTMLElement, scroller: HTMLElement | null): View {
  const r = el.getBoundingClientRect();
  if (!scroller) return { top: -r.top, bottom: window.innerHeight - r.top };
  const s = scroller.getBoundingClientRect();
  return { top: s.top - r.top, bottom: s.top + scroller.clientHeight - r.top };
}

const BlockBox = memo(function BlockBox({
  index,
  text,
  found,
  observe,
  render,
}: {
  index: number;
  text: string;
  found: boolean;
  observe: (el: HTMLDivElement | null) => void;
  render: (text: string) => ReactNode;
}) {
  return (
    <div ref={observe} className={`md-block${found ? ' md-block-found' : ''}`} data-block={index}>
      {render(text)}
    </div>
  );
});

/** Text of a rendered block, searched for the nth match to mark it (CSS highlights, where the engine has them). */
function markMatch(el: Element, query: string, nth: number): void {
  const highlights = (globalThis.CSS as { highlights?: Map<string, unknown> } | undefined)?.highlights;
  const Highlight = (globalThis as { Highlight?: new (r: Range) => unknown }).Highlight;
  if (!highlights || !Highlight) return;
  highlights.delete('errand-find');
  const q = query.toLowerCase();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.nodeValue ?? '').toLowerCase();
    for (let at = text.indexOf(q); at >= 0; at = text.indexOf(q, at + q.length)) {
      if (seen++ < nth) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + q.length);
      highlights.set('errand-find', new Highlight(range));
      return;
    }
  }
}

interface Found {
  /** Where each match starts in the text. */
  at: number[];
  /** The match shown. */
  current: number;
}

/** "Find in this reply": searches the stored text; Enter (Shift+Enter) goes to the next (previous) match. */
function FindBar({ text, open, onOpen, onClose, onShow }: {
  text: string;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  onShow: (query: string, found: Found) => void;
}) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found>({ at: [], current: 0 });
  const id = useId();
  const go = (q: string, step: number) => {
    const at = q === query && found.at.length ? found.at : findAll(text, q);
    const current = at.length ? (((q === query ? found.current + step : 0) % at.length) + at.length) % at.length : 0;
    const next = { at, current };
    setQuery(q);
    setFound(next);
    if (at.length) onShow(q, next);
  };
  if (!open) {
    return (
      <div className="md-find">
        <button type="button" className="md-find-btn" title="Ctrl+F with the reply in view" onClick={onOpen}>
          Find in this reply
        </button>
      </div>
    );
  }
  const status = query === '' ? '' : found.at.length === 0 ? 'No matches' : `${found.current + 1} of ${found.at.length}`;
  return (
    <div className="md-find md-find-open" role="search" aria-label="Find in this reply">
      <input
        type="search"
        className="md-find-input"
        aria-label="Find in this reply"
        aria-describedby={id}
        autoFocus
        value={query}
        onChange={(e) => go(e.target.value, 0)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            go(query, e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      />
      <span id={id} className="md-find-status muted" aria-live="polite">
        {status}
      </span>
      <button type="button" className="md-find-btn" disabled={found.at.length < 2} onClick={() => go(query, -1)}>
        Previous match
      </button>
      <button type="button" className="md-find-btn" disabled={found.at.length < 2} onClick={() => go(query, 1)}>
        Next match
      </button>
      <button type="button" className="md-find-btn" onClick={onClose}>
        Close find
      </button>
    </div>
  );
}

/**
 * The blocks of a long text, only those near the viewport in the page;
 * the last block (tail, which may be streaming) always is.
 */
export function WindowedBlocks({
  text,
  split,
  className,
  renderBlock,
  tail,
}: {
  text: string;
  split: BlockSplit;
  className: string;
  renderBlock: (text: string) => ReactNode;
  tail: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLElement | null>(null);
  const sizes = useRef(new BlockHeights());
  const width = useRef(700);
  const [view, setView] = useState<View>({ top: 0, bottom: 0 });
  const [, remeasured] = useReducer((n: number) => n + 1, 0);
  const [finding, setFinding] = useState(false);
  const [shown, setShown] = useState<{ block: number; query: string; nth: number; seq: number } | null>(null);

  const count = split.count - 1;
  const tops = sizes.current.tops(split, count, width.current);
  const range = rangeOf(view, tops);
  const latest = useRef({ split, tops, range, view });
  latest.current = { split, tops, range, view };

  // The view now, and whether it is at the reply's end (its last block,
  // the one that grows, in view) while the transcript follows the latest.
  const measureView = useCallback((): View | null => {
    const el = box.current;
    if (!el) return null;
    const s = scroller.current;
    const v = viewOf(el, s);
    const t = latest.current.tops;
    return { ...v, atEnd: !!s && nearEnd(s) && v.bottom >= t[t.length - 1]! };
  }, []);

  // Where the viewport is, on every scroll (once a frame) and resize.
  const frame = useRef(0);
  const update = useCallback(() => {
    frame.current = 0;
    const v = measureView();
    if (!v) return;
    const { tops: t, range: r, view: was } = latest.current;
    const next = rangeOf(v, t);
    // In the background, as the reply's growth is (Markdown): scrolling
    // brings new blocks into view, and their render yields to a click
    // (Stop) rather than holding the frame.
    if (next.first !== r.first || next.end !== r.end || v.atEnd !== was.atEnd) startTransition(() => setView(v));
  }, [measureView]);
  useLayoutEffect(() => {
    const el = box.current!;
    scroller.current = scrollParent(el);
    width.current = el.clientWidth || width.current;
    setView(measureView() ?? { top: 0, bottom: 0 });
    const target: EventTarget = scroller.current ?? window;
    const onScroll = () => {
      if (!frame.current) frame.current = requestAnimationFrame(update);
    };
    target.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      target.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame.current) cancelAnimationFrame(frame.current);
    };
  }, [update, measureView]);

  // Each rendered block is measured; one above the viewport that changed moves the view with it.
  const observer = useRef<ResizeObserver | null>(null);
  if (!observer.current && typeof ResizeObserver === 'function') {
    observer.current = new ResizeObserver((entries) => {
      const s = scroller.current;
      const viewTop = s ? s.getBoundingClientRect().top : 0;
      let changed = false;
      let shift = 0;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        // A block that left the window is reported as 0 × 0: it is no longer watched, and keeps its height.
        if (!el.isConnected) {
          observer.current?.unobserve(el);
          continue;
        }
        const i = Number(el.dataset.block);
        const h = e.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight;
        const { split: s } = latest.current;
        const delta = sizes.current.measure(i, i < s.count ? s.block(i) : '', h);
        if (delta === 0) continue;
        changed = true;
        if (el.getBoundingClientRect().bottom <= viewTop) shift += delta;
      }
      // At its end the transcript follows the latest text and stays there:
      // moved up, it read as the person scrolling up, and stopped following
      // a long reply as it streamed.
      if (s && shift !== 0 && !nearEnd(s)) s.scrollTop += shift;
      if (changed) startTransition(remeasured);
    });
  }
  useEffect(() => () => observer.current?.disconnect(), []);
  const observe = useCallback((el: HTMLDivElement | null) => {
    if (el) observer.current?.observe(el);
  }, []);

  // Ctrl+F (⌘F) with this reply in view opens its find.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'f' || !box.current) return;
      const v = viewOf(box.current, scroller.current);
      if (v.bottom <= 0 || v.top > box.current.offsetHeight) return;
      e.preventDefault();
      setFinding(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // A match: scroll its block near the top third of the view, then mark it once it is rendered.
  const show = (query: string, found: Found) => {
    const offset = found.at[found.current]!;
    const starts = split.starts;
    const block = Math.min(blockAt(starts, offset), count);
    const nth = found.at.filter((at, k) => k < found.current && blockAt(starts, at) === block).length;
    const el = box.current;
    const s = scroller.current;
    if (el && s) {
      const top = block < count ? tops[block]! : tops[count]!;
      s.scrollTop += el.getBoundingClientRect().top + top - s.getBoundingClientRect().top - s.clientHeight / 3;
      setView(viewOf(el, s));
    }
    setShown((prev) => ({ block, query, nth, seq: (prev?.seq ?? 0) + 1 }));
  };
  useLayoutEffect(() => {
    if (!shown) return;
    const el = box.current?.querySelector(`[data-block="${shown.block}"]`) ?? box.current?.lastElementChild;
    if (!el) return;
    el.scrollIntoView?.({ block: 'center' });
    markMatch(el, shown.query, shown.nth);
  }, [shown]);
  const close = () => {
    setFinding(false);
    setShown(null);
    (globalThis.CSS as { highlights?: Map<string, unknown> } | undefined)?.highlights?.delete('errand-find');
  };

  const items: ReactNode[] = [];
  for (let i = range.first; i < range.end && i < count; i++) {
    items.push(
      <BlockBox key={i} index={i} text={split.block(i)} found={shown?.block === i} observe={observe} render={renderBlock} />,
    );
  }
  const end = Math.min(range.end, count);
  return (
    <div ref={box} className={`${className} md-windowed`} data-blocks={split.count} data-rendered={end - range.first + 1}>
      <FindBar text={text} open={finding} onOpen={() => setFinding(true)} onClose={close} onShow={show} />
      <div className="md-spacer" style={{ height: tops[Math.min(range.first, count)] }} aria-hidden="true" />
      {items}
      <div className="md-spacer" style={{ height: tops[count]! - tops[Math.max(end, range.first)]! }} aria-hidden="true" />
      <div className="md-block" data-block={count}>
        {tail}
      </div>
    </div>
  );
}

import { useId, useLayoutEffect, useRef, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { Markdown } from '../../components/Markdown';
import { shimmer, useTick } from '../../components/Motion';
import type { TranscriptItem } from './transcript';

type ThinkingItem = Extract<TranscriptItem, { kind: 'thinking' }>;

/** Within this many px of its end, the live thinking follows the text as it grows. */
const FOLLOW_DISTANCE = 24;

/** "Thought for 12 s": whole seconds, at least 1 (a model that thought at all took some time). */
export function thoughtLabel(ms: number): string {
  return `Thought for ${Math.max(1, Math.round(ms / 1000))} s`;
}

/**
 * Keeps a scroller at its end while its content grows (a live text), unless
 * the person scrolled up in it; returns its onScroll handler.
 */
function useFollowEnd(ref: RefObject<HTMLDivElement | null>, active: boolean): () => void {
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    const stick = () => {
      if (atEnd.current) el.scrollTop = el.scrollHeight;
    };
    stick();
    if (typeof ResizeObserver !== 'function' || !el.firstElementChild) return;
    // The Markdown renders its latest text a frame later: follow its size.
    const ro = new ResizeObserver(stick);
    ro.observe(el.firstElementChild);
    return () => ro.disconnect();
  }, [ref, active]);
  return () => {
    const el = ref.current;
    if (el) atEnd.current = el.scrollHeight - el.clientHeight - el.scrollTop <= FOLLOW_DISTANCE;
  };
}

/**
 * A reply's thinking: while the model thinks (before any answer), open and
 * streaming in a short box kept at its end; once it answers or the message
 * ends, folded to "Thought for N s", which opens it. Never part of the
 * reply's copy.
 */
export function ThinkingBlock({
  item,
  rowRef,
  index,
  badge,
}: {
  item: ThinkingItem;
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
  /** The step's badge: the thinking is where the step begins. */
  badge?: ReactNode;
}) {
  // Open exactly while live, unless the person chose otherwise since it
  // became (or stopped being) live: the answer folds it whatever was chosen.
  const [choice, setChoice] = useState<{ live: boolean; open: boolean } | null>(null);
  const open = choice?.live === item.live ? choice.open : item.live;
  const id = useId();
  const bodyRef = useRef<HTMLDivElement>(null);
  const onScroll = useFollowEnd(bodyRef, open && item.live);
  const label = useTick(shimmer, item.live);
  return (
    <div ref={rowRef} data-index={index} className={`thinking-row${item.live ? ' is-live' : ''}`}>
      <div className="thinking-head">
        {badge}
        <button
          type="button"
          className="thinking-toggle"
          aria-expanded={open}
          aria-controls={open ? id : undefined}
          onClick={() => setChoice({ live: item.live, open: !open })}
        >
          <span className="chevron" aria-hidden="true">
            ›
          </span>
          <span ref={label} className="thinking-label">{item.live ? 'Thinking' : thoughtLabel(item.ms)}</span>
        </button>
      </div>
      {open && (
        <div
          ref={bodyRef}
          id={id}
          role="region"
          aria-label="Thinking"
          className="thinking-body"
          onScroll={item.live ? onScroll : undefined}
        >
          <Markdown text={item.text} streaming={item.live} />
        </div>
      )}
    </div>
  );
}

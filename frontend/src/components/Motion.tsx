import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { onTick } from '../lib/ticker';

// The shapes of the window's continuous motion, each a step of the shared
// clock (lib/ticker): what CSS keyframes drew before, at ten steps a second.
//
// None moves by a transform: the stylesheet draws each step where it is
// (a ring's arc at an angle, a dot at a size or a height). WebKitGTK
// without a GPU repaints far more than a transformed element at each
// step: the whole sidebar for its 13 px spinner (with a streaming reply
// beside it, the whole window), 620 px of the transcript for the status
// line's.

/** Steps el with the clock while it is mounted (and active); step must not change. */
export function useTick<T extends HTMLElement>(step: (el: T, tick: number) => void, active = true): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !active) return;
    return onTick((tick) => step(el, tick));
  }, [step, active]);
  return ref;
}

/** An eighth of a turn a tick (--turn, the arc's angle): a turn in 0.8 s. */
export function spin(el: HTMLElement, tick: number): void {
  el.style.setProperty('--turn', `${(tick % 8) * 45}deg`);
}

/** Fades and shrinks (--scale) to its middle and back in 1.6 s. */
export function pulse(el: HTMLElement, tick: number): void {
  const v = (1 + Math.cos((2 * Math.PI * (tick % 16)) / 16)) / 2;
  el.style.opacity = (0.35 + 0.65 * v).toFixed(2);
  el.style.setProperty('--scale', (0.8 + 0.2 * v).toFixed(2));
}

/** Shown half of each second, hidden the other (the caret of a reply being written). */
export function blink(el: HTMLElement, tick: number): void {
  el.classList.toggle('caret-off', tick % 10 >= 5);
}

/** Each of three dots up in turn, 1.2 s a round. */
export function typing(el: HTMLElement, tick: number): void {
  Array.from(el.children).forEach((dot, i) => dot.classList.toggle('up', (tick + 12 - 2 * i) % 12 < 4));
}

/** A light moving across the text in 2.2 s. */
export function shimmer(el: HTMLElement, tick: number): void {
  el.style.backgroundPosition = `${100 - ((tick % 22) * 100) / 21}% 0`;
}

/** The working spinner; what it says, if anything, is its children. */
export function Spinner({ className, title, children }: { className: string; title?: string; children?: ReactNode }) {
  return (
    <span ref={useTick(spin)} className={className} title={title} aria-hidden={children ? undefined : true}>
      {children}
    </span>
  );
}

/** The dot that waits for the person. */
export function PulseDot({ className }: { className: string }) {
  return <span ref={useTick(pulse)} className={className} aria-hidden="true" />;
}

/** Three dots while a reply has no text yet. */
export function TypingDots() {
  return (
    <span ref={useTick(typing)} className="typing" role="img" aria-label="Writing">
      <span />
      <span />
      <span />
    </span>
  );
}

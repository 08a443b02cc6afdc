import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TICK_MS, ticking } from '../lib/ticker';
import { blink, PulseDot, Spinner, TypingDots, useTick } from './Motion';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});

afterEach(() => {
  vi.useRealTimers();
});

/** The angle the spinner's arc is drawn at now, in degrees. */
function turn(el: Element): number {
  return Number((el as HTMLElement).style.getPropertyValue('--turn').match(/^(\d+)deg$/)?.[1]);
}

function Caret({ streaming }: { streaming: boolean }) {
  return <div ref={useTick<HTMLDivElement>(blink, streaming)} data-testid="bubble" />;
}

describe('the window’s motion', () => {
  it('a spinner turns an eighth a tick, a whole turn in 0.8 s, and stops the clock once gone', () => {
    const { container, unmount } = render(<Spinner className="status-spinner" />);
    const spinner = container.querySelector('.status-spinner')!;
    const first = turn(spinner);
    vi.advanceTimersByTime(TICK_MS);
    expect(turn(spinner)).toBe((first + 45) % 360);
    vi.advanceTimersByTime(7 * TICK_MS);
    expect(turn(spinner)).toBe(first);
    // Its arc is drawn at the angle: the element itself never turns.
    expect((spinner as HTMLElement).style.transform).toBe('');
    unmount();
    expect(ticking()).toBe(false);
  });

  it('the spinner in a row says what it means; alone it is hidden from screen readers', () => {
    const { container } = render(
      <>
        <Spinner className="live-dot" title="Working">
          <span>Working</span>
        </Spinner>
        <Spinner className="status-spinner" />
      </>,
    );
    expect(container.querySelector('.live-dot')).toHaveAttribute('title', 'Working');
    expect(container.querySelector('.live-dot')).not.toHaveAttribute('aria-hidden');
    expect(container.querySelector('.status-spinner')).toHaveAttribute('aria-hidden', 'true');
  });

  it('the waiting dot fades and shrinks to its middle and back in 1.6 s', () => {
    const { container } = render(<PulseDot className="status-dot" />);
    const dot = container.querySelector<HTMLElement>('.status-dot')!;
    const seen = new Set<string>();
    const sizes = new Set<string>();
    for (let i = 0; i < 16; i++) {
      seen.add(dot.style.opacity);
      sizes.add(dot.style.getPropertyValue('--scale'));
      vi.advanceTimersByTime(TICK_MS);
    }
    expect(Math.min(...[...seen].map(Number))).toBeCloseTo(0.35, 2);
    expect(Math.max(...[...seen].map(Number))).toBe(1);
    expect(Math.min(...[...sizes].map(Number))).toBeCloseTo(0.8, 2);
    expect(Math.max(...[...sizes].map(Number))).toBe(1);
    expect(dot.style.transform).toBe('');
  });

  it('one dot of three is up at a time, and each has its turn', () => {
    const { container } = render(<TypingDots />);
    const ups = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const dots = Array.from(container.querySelectorAll('.typing span'));
      dots.forEach((d, j) => d.classList.contains('up') && ups.add(j));
      vi.advanceTimersByTime(TICK_MS);
    }
    expect([...ups].sort()).toEqual([0, 1, 2]);
  });

  it('the caret of a reply being written is hidden half of each second, and still once the reply ends', () => {
    const { getByTestId, rerender } = render(<Caret streaming />);
    const hidden: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      hidden.push(getByTestId('bubble').classList.contains('caret-off'));
      vi.advanceTimersByTime(TICK_MS);
    }
    expect(hidden.filter(Boolean)).toHaveLength(5);
    rerender(<Caret streaming={false} />);
    expect(ticking()).toBe(false);
  });
});

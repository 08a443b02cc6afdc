// Work timed to the window's frames (or its idle time). Where there are no frames (a test
// without a page), each runs at the next task instead. Each returns a
// function that cancels it.

/** Runs fn when the next frame starts. */
export function nextFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') {
    const timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(fn);
  return () => cancelAnimationFrame(frame);
}

/** Runs fn once the frame now being prepared has been painted. */
export function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Runs fn when the window is idle (where it cannot say, at the next task). */
export function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(fn);
  return () => cancelIdleCallback(idle);
}

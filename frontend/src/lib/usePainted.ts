import { useEffect, useState } from 'react';
import { afterPaint, nextFrame } from './frames';

/**
 * False until the component's first frame has been painted, then true: what
 * is out of view can wait for it (virtualized lists render their overscan
 * rows then), so that the first frame comes sooner.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterPaint(() => setPainted(true)), []);
  return painted;
}

/**
 * True from the render in which `on` turns true until the frame that shows
 * that render has been painted (the frame after it has begun), then false
 * while `on` stays true: what can wait for that frame holds still until it
 * is on the screen. (A timer queued in a frame, as afterPaint does, can run
 * before WebKitGTK paints that frame; the next frame cannot.)
 */
export function useUntilPainted(on: boolean): boolean {
  const [painted, setPainted] = useState(false);
  // Off again, the next time it turns on holds anew.
  if (!on && painted) setPainted(false);
  useEffect(() => {
    if (!on || painted) return;
    let cancel = nextFrame(() => {
      cancel = nextFrame(() => setPainted(true));
    });
    return () => cancel();
  }, [on, painted]);
  return on && !painted;
}

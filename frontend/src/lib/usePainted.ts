import { useEffect, useState } from 'react';
import { afterPaint } from './frames';

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

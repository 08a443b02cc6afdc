import { useState } from 'react';

/**
 * An action in flight: run(fn) sets pending until fn settles, so its
 * buttons can be disabled meanwhile (fn reports its own failure).
 */
export function usePending() {
  const [pending, setPending] = useState(false);
  const run = async (fn: () => Promise<unknown>) => {
    setPending(true);
    try {
      await fn();
    } finally {
      setPending(false);
    }
  };
  return { pending, run };
}

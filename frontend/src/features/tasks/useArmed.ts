import { useEffect, useState } from 'react';

/** How long a new approval card ignores clicks and keys. */
export const APPROVAL_GUARD_MS = 500;

/**
 * False for delayMs after `key` first appears (or changes), then true: so
 * that a person typing or clicking when a card pops up cannot answer it by
 * accident.
 */
export function useArmed(key: string, delayMs = APPROVAL_GUARD_MS): boolean {
  const [armedKey, setArmedKey] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setArmedKey(key), delayMs);
    return () => clearTimeout(t);
  }, [key, delayMs]);
  return armedKey === key;
}

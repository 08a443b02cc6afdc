// Searches as the person types: each change waits SEARCH_DEBOUNCE_MS of
// quiet, and a response that arrives after a newer query was sent is
// dropped, so the list always answers what the box holds.
import { useEffect, useRef, useState } from 'react';
import * as api from '../../api';
import type { SearchHit } from '../../api/types';
import { toApiError } from '../../api/errors';

export const SEARCH_DEBOUNCE_MS = 120;

export interface SearchState {
  hits: SearchHit[];
  /** A search for the current text is under way. */
  searching: boolean;
  /** What went wrong with the last search, if it failed. */
  error: string;
}

export function useSearch(query: string): SearchState {
  const [state, setState] = useState<SearchState>({ hits: [], searching: false, error: '' });
  const latest = useRef(0);
  useEffect(() => {
    const text = query.trim();
    const n = ++latest.current;
    if (text === '') {
      setState({ hits: [], searching: false, error: '' });
      return;
    }
    setState((s) => ({ ...s, searching: true }));
    const timer = setTimeout(() => {
      api.searchMessages(text).then(
        (hits) => {
          if (latest.current === n) setState({ hits, searching: false, error: '' });
        },
        (err: unknown) => {
          if (latest.current === n) setState({ hits: [], searching: false, error: toApiError(err).message });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  return state;
}

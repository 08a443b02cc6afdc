import { useEffect, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';

// The last images read, by id: a thumbnail and its viewer share one read,
// and a row scrolled back into view does not read again.
const KEEP = 16;
const cache = new Map<string, Promise<string>>();

function imageOf(id: string): Promise<string> {
  const hit = cache.get(id);
  if (hit) {
    cache.delete(id);
    cache.set(id, hit);
    return hit;
  }
  const read = api.attachmentImage(id);
  cache.set(id, read);
  read.catch(() => cache.delete(id));
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  return read;
}

/** Forgets the images read (tests start empty). */
export function forgetAttachmentImages() {
  cache.clear();
}

/** A stored image as a data: URL, read from Go when the component shows; or why it could not be. */
export function useAttachmentImage(id: string): { src: string; error: string } {
  const [state, setState] = useState({ id, src: '', error: '' });
  useEffect(() => {
    let live = true;
    imageOf(id).then(
      (src) => live && setState({ id, src, error: '' }),
      (err) => live && setState({ id, src: '', error: toApiError(err).message }),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return state.id === id ? state : { src: '', error: '' };
}

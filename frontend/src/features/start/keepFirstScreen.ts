// Keeps the first screen's copy up to date (firstScreenCopy.ts): once the
// window has been quiet for a while in the shape of a first screen, its
// markup goes to Go, which shows it at the next start.
import * as api from '../../api';
import { CONVERSATION_PAGE, MESSAGE_PAGE } from '../../api/pageSizes';
import { whenIdle } from '../../lib/frames';
import { captureFirstScreen } from './firstScreenCopy';
import { inFirstScreenShape, SHAPE_STORES } from './firstScreenShape';

/** How long the window must go without a change (store, DOM, scroll, selection) before its screen is looked at. */
export const QUIET_MS = 2000;

/**
 * From now on, after each change followed by QUIET_MS of none (and then
 * idle time), saves root's markup when the window is in the shape of a first
 * screen and the markup differs from the last saved. Returns a function that
 * stops it.
 */
export function keepFirstScreen(root: HTMLElement): () => void {
  const doc = root.ownerDocument;
  let saved = '';
  let cancel = () => {};
  const look = () => {
    if (!inFirstScreenShape(root)) return;
    const html = captureFirstScreen(root);
    if (html === saved) return;
    saved = html;
    const snapshot = { html, width: innerWidth, height: innerHeight, listLimit: CONVERSATION_PAGE, messageLimit: MESSAGE_PAGE };
    void Promise.resolve()
      .then(() => api.saveFirstScreen(snapshot))
      .catch((err: unknown) => {
        if (saved === html) saved = ''; // the next quiet moment tries again
        console.warn('Errand: could not keep the first screen', err);
      });
  };
  const changed = () => {
    cancel();
    const timer = setTimeout(() => (cancel = whenIdle(look)), QUIET_MS);
    cancel = () => clearTimeout(timer);
  };
  const unsubscribe = SHAPE_STORES.map((store) => store.subscribe(changed));
  const observer = new MutationObserver(changed);
  observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  const listen = { capture: true, passive: true };
  doc.addEventListener('scroll', changed, listen);
  doc.addEventListener('selectionchange', changed);
  changed();
  return () => {
    cancel();
    for (const stop of unsubscribe) stop();
    observer.disconnect();
    doc.removeEventListener('scroll', changed, listen);
    doc.removeEventListener('selectionchange', changed);
  };
}

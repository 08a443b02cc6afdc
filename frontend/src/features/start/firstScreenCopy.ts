import { afterPaint } from '../../lib/frames';

// The first screen's copy: like a native app restoring its last state, the
// window keeps the markup of its first screen (captureFirstScreen, saved by
// keepFirstScreen.ts), and on the next start Go puts it into index.html when
// the first screen still shows the same data. The page paints the copy as
// soon as the HTML is parsed (index.html's inline script checks its size and
// shows it); React renders beneath it, and the copy goes in the task of
// React's first screen (showWhenReady).

/** The copy's element, as Go puts it into index.html. */
export const FIRST_SCREEN_COPY_ID = 'first-screen';

/** Marks an element the copy leaves out: menus, toasts, anything that must not come back at the next start. */
export const NO_SNAPSHOT = 'data-no-snapshot';

/**
 * The markup of root's children as they look now: what the person typed or
 * chose in its fields, and the scroll positions of its scrollers
 * (data-snap-top / data-snap-left, which index.html restores), without the
 * elements marked NO_SNAPSHOT.
 */
export function captureFirstScreen(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  const from = root.querySelectorAll('*');
  const to = copy.querySelectorAll('*');
  for (let i = 0; i < from.length; i++) keepState(from[i]!, to[i]!);
  for (const el of copy.querySelectorAll(`[${NO_SNAPSHOT}]`)) el.remove();
  return copy.innerHTML;
}

/** Writes what the DOM holds only as properties (scroll, field values) into the copy's attributes. */
function keepState(el: Element, copy: Element): void {
  if (el.scrollTop) copy.setAttribute('data-snap-top', String(Math.round(el.scrollTop)));
  if (el.scrollLeft) copy.setAttribute('data-snap-left', String(Math.round(el.scrollLeft)));
  if (el instanceof HTMLTextAreaElement) copy.textContent = el.value;
  else if (el instanceof HTMLInputElement) {
    if (el.type === 'checkbox' || el.type === 'radio') copy.toggleAttribute('checked', el.checked);
    else copy.setAttribute('value', el.value);
  } else if (el instanceof HTMLOptionElement) copy.toggleAttribute('selected', el.selected);
}

/** Removes the copy: React's DOM is what the next paint shows. */
export function dropFirstScreenCopy(doc: Document = document): void {
  doc.getElementById(FIRST_SCREEN_COPY_ID)?.remove();
}

/**
 * The window's first render: render() once ready settles (the stores hold
 * the first screen), or after shellAfterMs with what there is (the shell,
 * "Loading…", filled in later). The copy stays over the shell, and goes in
 * the task that renders with the first screen (or learns it failed).
 */
export function showWhenReady(ready: Promise<unknown>, render: () => void, shellAfterMs: number): void {
  const show = () => {
    render();
    dropFirstScreenCopy();
  };
  const settled = ready.then(copyPainted, copyPainted);
  void settled.then(show);
  setTimeout(render, shellAfterMs);
}

/**
 * Resolves once the copy, when the page shows one, has been painted. The
 * main module can be ready before the window has painted the parsed page
 * (a big history's copy is a long first layout): React's first render
 * then waits a frame, so the person sees the copy at once instead of after
 * React's work.
 */
function copyPainted(): Promise<void> | undefined {
  const copy = document.getElementById(FIRST_SCREEN_COPY_ID);
  if (!copy || !('shown' in copy.dataset)) return undefined;
  return new Promise((resolve) => afterPaint(resolve));
}

/** How near its end a scroller counts as at it: the transcript follows the latest text from there. */
export const STICK_DISTANCE = 80;

/** Whether el is scrolled to within STICK_DISTANCE of its end. */
export function nearEnd(el: HTMLElement): boolean {
  return el.scrollHeight - el.clientHeight - el.scrollTop <= STICK_DISTANCE;
}

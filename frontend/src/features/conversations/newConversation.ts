import { createConversation } from '../../stores/actions';

let inFlight: Promise<boolean> | null = null;

/** Moves focus to the composer once it is there (after a conversation opens). */
export function focusComposer(): void {
  const tryFocus = (left: number) => {
    const el = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
    if (el && !el.disabled) el.focus();
    else if (left > 0) requestAnimationFrame(() => tryFocus(left - 1));
  };
  requestAnimationFrame(() => tryFocus(10));
}

/**
 * Creates and opens a new conversation, then puts the cursor in the
 * composer. One at a time: a second call while one runs shares it.
 */
export function newConversation(): Promise<boolean> {
  if (!inFlight) {
    inFlight = createConversation()
      .then((ok) => {
        if (ok) focusComposer();
        return ok;
      })
      .finally(() => {
        inFlight = null;
      });
  }
  return inFlight;
}

/** True while a conversation is being created. */
export function creatingConversation(): boolean {
  return inFlight !== null;
}

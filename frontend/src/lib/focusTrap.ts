import type { KeyboardEvent } from 'react';

/**
 * Keeps Tab and Shift+Tab among the enabled buttons of a modal dialog: from
 * the last one Tab goes to the first, and back. Other keys pass.
 */
export function trapTab(e: KeyboardEvent, box: HTMLElement | null): void {
  if (e.key !== 'Tab') return;
  const buttons = Array.from(box?.querySelectorAll<HTMLElement>('button:not(:disabled)') ?? []);
  const first = buttons[0];
  const last = buttons[buttons.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

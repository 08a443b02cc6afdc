import { create } from 'zustand';

/** A question ConfirmDialog puts to the person before something that cannot be undone. */
export interface ConfirmRequest {
  title: string;
  text: string;
  /** The button that goes ahead (danger styled). */
  confirmLabel: string;
  /** The button that changes nothing (focused first; Esc means it too). */
  cancelLabel: string;
}

interface ConfirmStore {
  request: ConfirmRequest | null;
  resolve: ((ok: boolean) => void) | null;
  /** Where focus goes back when the dialog closes. */
  returnFocus: HTMLElement | null;
}

export const useConfirmStore = create<ConfirmStore>()(() => ({ request: null, resolve: null, returnFocus: null }));

/**
 * Asks the person; true if they confirmed. A second question while one is
 * open answers the first with false.
 */
export function askConfirm(request: ConfirmRequest): Promise<boolean> {
  const prev = useConfirmStore.getState().resolve;
  return new Promise<boolean>((resolve) => {
    const active = document.activeElement;
    useConfirmStore.setState({
      request,
      resolve,
      returnFocus: active instanceof HTMLElement ? active : null,
    });
    prev?.(false);
  });
}

/** Closes the dialog with the person's answer. */
export function answerConfirm(ok: boolean): void {
  const { resolve, returnFocus } = useConfirmStore.getState();
  useConfirmStore.setState({ request: null, resolve: null, returnFocus: null });
  resolve?.(ok);
  if (returnFocus?.isConnected) returnFocus.focus();
}

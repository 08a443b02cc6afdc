import { create } from 'zustand';

/** A question ConfirmDialog puts to the person before something that cannot be undone. */
export interface ConfirmRequest {
  title: string;
  text: string;
  /** The button that goes ahead (danger styled). */
  confirmLabel: string;
  /** The button that changes nothing (focused first; Esc means it too). */
  cancelLabel: string;
  /**
   * An optional text the person may add (a reason). Confirming calls `act`
   * with it; when `act` returns an error about the text, the dialog shows
   * it on the field and stays open.
   */
  input?: ConfirmInput;
}

export interface ConfirmInput {
  label: string;
  hint?: string;
  act(value: string): Promise<string | null>;
}

interface ConfirmStore {
  request: ConfirmRequest | null;
  resolve: ((ok: boolean) => void) | null;
}

export const useConfirmStore = create<ConfirmStore>()(() => ({ request: null, resolve: null }));

/**
 * Asks the person; true if they confirmed. A second question while one is
 * open answers the first with false.
 */
export function askConfirm(request: ConfirmRequest): Promise<boolean> {
  const prev = useConfirmStore.getState().resolve;
  return new Promise<boolean>((resolve) => {
    // The dialog (Modal) gives the focus back to what had it when it closes.
    useConfirmStore.setState({ request, resolve });
    prev?.(false);
  });
}

/** Closes the dialog with the person's answer. */
export function answerConfirm(ok: boolean): void {
  const { resolve } = useConfirmStore.getState();
  useConfirmStore.setState({ request: null, resolve: null });
  resolve?.(ok);
}

import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { FOCUSABLE, trapTab } from '../lib/focusTrap';

export interface ModalProps {
  /** Esc and a click on the backdrop call it (a dialog with unsaved work asks first). */
  onClose(): void;
  /** The id of the dialog's heading, or a label when it has none. */
  labelledBy?: string;
  label?: string;
  describedBy?: string;
  /** "alertdialog" for a question that interrupts (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** Extra classes for the box (always "modal") and the backdrop (always "modal-backdrop"). */
  className?: string;
  backdropClassName?: string;
  /** What takes the focus on open ("dialog": the box itself); the first focusable element when absent. */
  initialFocus?: RefObject<HTMLElement | null> | 'dialog';
  children: ReactNode;
}

/**
 * The one modal dialog shell: a backdrop over the whole window (in a portal,
 * so it is over every other dialog), Esc and a click outside to close, Tab
 * kept inside, the focus put in on open and given back to what had it (the
 * button that opened it) on close.
 */
export function Modal(props: ModalProps) {
  const { onClose, role = 'dialog', initialFocus } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  useFocusInAndBack(boxRef, initialFocus);
  useEscapeFromNowhere(onClose);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    trapTab(e, boxRef.current);
  };

  return createPortal(
    <div className={cls('modal-backdrop', props.backdropClassName)} onMouseDown={onClose}>
      <div
        ref={boxRef}
        className={cls('modal', props.className)}
        role={role}
        aria-modal="true"
        aria-label={props.label}
        aria-labelledby={props.labelledBy}
        aria-describedby={props.describedBy}
        tabIndex={-1}
        onMouseDown={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
      >
        {props.children}
      </div>
    </div>,
    document.body,
  );
}

function useFocusInAndBack(box: RefObject<HTMLElement | null>, initial?: ModalProps['initialFocus']) {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const chosen = initial === 'dialog' ? box.current : initial?.current;
    const target = chosen ?? box.current?.querySelector<HTMLElement>(FOCUSABLE) ?? box.current;
    target?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
    // Once per opening: the refs are stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

// The open modals, the top one last: Esc with the focus nowhere closes only it.
const openModals: object[] = [];

/**
 * Esc when the focus has fallen out of every element (to the page body, as
 * when the focused control was removed) closes the top modal, as it would
 * with the focus inside.
 */
function useEscapeFromNowhere(onClose: () => void) {
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const me = {};
    openModals.push(me);
    const onKey = (e: globalThis.KeyboardEvent) => {
      const active = document.activeElement;
      if (e.key !== 'Escape' || e.defaultPrevented || (active && active !== document.body)) return;
      if (openModals[openModals.length - 1] !== me) return;
      e.preventDefault();
      closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openModals.splice(openModals.indexOf(me), 1);
    };
  }, []);
}

function cls(base: string, extra?: string): string {
  return extra ? `${base} ${extra}` : base;
}

// A button that opens a menu of actions below it: the one way the
// conversation header's menus (Export, More actions) work. Arrow keys move
// between the items, Esc closes and gives the focus back to the button, a
// press outside closes it. The menu is rendered inside its anchor (no
// portal), so a press on an item is never taken for a press outside.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuAction {
  label: string;
  hint?: string;
  run: () => void;
  danger?: boolean;
  disabled?: boolean;
  /** Said on hover (why it is disabled, for one). */
  title?: string;
}

interface Props {
  /** The button's content, and its accessible name when it has no text. */
  button: ReactNode;
  buttonLabel?: string;
  buttonClassName?: string;
  menuLabel: string;
  items: MenuAction[];
  /** Closes the menu when it changes (another conversation). */
  resetKey: string;
}

function menuKeys(e: KeyboardEvent, menu: HTMLElement | null, close: () => void, leave: () => void) {
  const items = Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? []);
  const i = items.indexOf(document.activeElement as HTMLElement);
  const step = (d: number) => items[(i + d + items.length) % items.length]?.focus();
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    close();
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    step(e.key === 'ArrowDown' ? 1 : -1);
  } else if (e.key === 'Home' || e.key === 'End') {
    e.preventDefault();
    items[e.key === 'Home' ? 0 : items.length - 1]?.focus();
  } else if (e.key === 'Tab') {
    leave();
  }
}

export function ActionMenu({ button, buttonLabel, buttonClassName, menuLabel, items, resetKey }: Props) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [resetKey]);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <span className="export-anchor">
      <button
        ref={buttonRef}
        type="button"
        className={`btn btn-ghost btn-small${buttonClassName ? ` ${buttonClassName}` : ''}`}
        aria-label={buttonLabel}
        title={buttonLabel}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {button}
      </button>
      {open && (
        <>
          <div className="menu-catcher" data-no-snapshot="" onMouseDown={() => setOpen(false)} />
          <div
            id={menuId}
            ref={menu}
            className="export-menu"
            data-no-snapshot=""
            role="menu"
            aria-label={menuLabel}
            onKeyDown={(e) => menuKeys(e, menu.current, close, () => setOpen(false))}
          >
            {items.map((it) => (
              <button
                key={it.label}
                type="button"
                role="menuitem"
                className={`export-item${it.danger ? ' export-item-danger' : ''}`}
                disabled={it.disabled}
                title={it.title}
                onClick={() => {
                  close();
                  it.run();
                }}
              >
                <span className="export-item-label">{it.label}</span>
                {it.hint && (
                  <span className="export-item-hint" aria-hidden="true">
                    {it.hint}
                  </span>
                )}
              </button>
            ))}
          </div>
        </>
      )}
    </span>
  );
}

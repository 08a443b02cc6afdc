// The conversation header's "Export" button: Markdown (to read) or JSON
// (complete, to import again).
import { useEffect, useId, useRef, useState } from 'react';
import type { ExportFormat } from '../../api';
import { exportConversation } from './archiveActions';

const FORMATS: { format: ExportFormat; label: string; hint: string }[] = [
  { format: 'markdown', label: 'Markdown', hint: 'to read or share' },
  { format: 'json', label: 'JSON', hint: 'complete, can be imported again' },
];

export function ExportMenu({ conversationId }: { conversationId: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [conversationId]);
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (format: ExportFormat) => {
    close();
    void exportConversation(conversationId, format);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <span className="export-anchor">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        Export
      </button>
      {open && (
        <>
          <div className="menu-catcher" onMouseDown={() => setOpen(false)} />
          <div id={menuId} ref={menu} className="export-menu" role="menu" aria-label="Export as" onKeyDown={onKeyDown}>
            {FORMATS.map((f) => (
              <button key={f.format} type="button" role="menuitem" className="export-item" onClick={() => choose(f.format)}>
                <span className="export-item-label">{f.label}</span>
                <span className="export-item-hint" aria-hidden="true">
                  {f.hint}
                </span>
              </button>
            ))}
          </div>
        </>
      )}
    </span>
  );
}

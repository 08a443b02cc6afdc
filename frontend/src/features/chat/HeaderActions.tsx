// The conversation header's less-used actions: Memory, Export, Archive (or
// Restore) and Delete. In a wide window they are buttons; in a narrow one
// (800 px) all but Memory's panel go into "More actions", a menu, instead
// of scrolling the header sideways.
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { useConversationsStore } from '../../stores/conversations';
import { archiveConversation, restoreConversation } from '../../stores/conversationState';
import { exportConversation } from '../archive/archiveActions';
import { ExportMenu } from '../archive/ExportMenu';
import { requestDelete } from '../conversations/deleteRequest';
import { ConversationMemory } from '../memory/MemorySection';

/** The window width at or below which the header folds its less-used actions. */
export const NARROW_HEADER = '(max-width: 960px)';

function subscribe(query: string) {
  return (onChange: () => void) => {
    const m = typeof window.matchMedia === 'function' ? window.matchMedia(query) : null;
    m?.addEventListener('change', onChange);
    return () => m?.removeEventListener('change', onChange);
  };
}

/** Whether the media query matches now (false where there is no matchMedia). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(subscribe(query), () =>
    typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false,
  );
}

interface Item {
  label: string;
  run: () => void;
  danger?: boolean;
}

function MoreActions({ conversationId, items }: { conversationId: string; items: Item[] }) {
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
  const onKeyDown = (e: React.KeyboardEvent) => {
    const all = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const i = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(i + (e.key === 'ArrowDown' ? 1 : -1) + all.length) % all.length]?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <span className="export-anchor">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-small more-actions"
        aria-label="More actions"
        title="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <>
          <div className="menu-catcher" onMouseDown={() => setOpen(false)} />
          <div id={menuId} ref={menu} className="export-menu" role="menu" aria-label="More actions" onKeyDown={onKeyDown}>
            {items.map((it) => (
              <button
                key={it.label}
                type="button"
                role="menuitem"
                className={`export-item${it.danger ? ' export-item-danger' : ''}`}
                onClick={() => {
                  close();
                  it.run();
                }}
              >
                <span className="export-item-label">{it.label}</span>
              </button>
            ))}
          </div>
        </>
      )}
    </span>
  );
}

export function HeaderActions({ conversationId }: { conversationId: string }) {
  const archived = useConversationsStore((s) => !!s.byId[conversationId]?.archived);
  const narrow = useMediaQuery(NARROW_HEADER);
  const archive = () => void (archived ? restoreConversation(conversationId) : archiveConversation(conversationId));
  const archiveLabel = archived ? 'Restore' : 'Archive';

  if (narrow) {
    const items: Item[] = [
      { label: 'Export as Markdown', run: () => void exportConversation(conversationId, 'markdown') },
      { label: 'Export as JSON', run: () => void exportConversation(conversationId, 'json') },
      { label: archiveLabel, run: archive },
      { label: 'Delete conversation', run: () => requestDelete(conversationId), danger: true },
    ];
    return (
      <>
        <ConversationMemory conversationId={conversationId} />
        <MoreActions conversationId={conversationId} items={items} />
      </>
    );
  }
  return (
    <>
      <ConversationMemory conversationId={conversationId} />
      <ExportMenu conversationId={conversationId} />
      <button type="button" className="btn btn-ghost btn-small" onClick={archive}>
        {archiveLabel}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-small"
        aria-label="Delete conversation"
        onClick={() => requestDelete(conversationId)}
      >
        Delete
      </button>
    </>
  );
}

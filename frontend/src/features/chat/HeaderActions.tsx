// The conversation header's less-used actions: Memory, Compact now, Export,
// Archive (or Restore) and Delete. In a wide window they are buttons; in a
// narrow one (800 px) all but Memory's panel go into "More actions", a
// menu, and the header never scrolls sideways.
import { useSyncExternalStore } from 'react';
import { ActionMenu, type MenuAction } from '../../components/ActionMenu';
import { useConversationsStore } from '../../stores/conversations';
import { archiveConversation, restoreConversation } from '../../stores/conversationState';
import { exportConversation } from '../archive/archiveActions';
import { ExportMenu } from '../archive/ExportMenu';
import { requestDelete } from '../conversations/deleteRequest';
import { ConversationMemory } from '../memory/ConversationMemory';
import { useCompact } from './ContextMeter';

/** The window width at or below which the header folds its less-used actions. */
export const NARROW_HEADER = '(max-width: 1200px)';

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

export function HeaderActions({ conversationId, narrow }: { conversationId: string; narrow: boolean }) {
  const archived = useConversationsStore((s) => !!s.byId[conversationId]?.archived);
  const compact = useCompact(conversationId);
  const archive = () => void (archived ? restoreConversation(conversationId) : archiveConversation(conversationId));
  const archiveLabel = archived ? 'Restore' : 'Archive';

  if (narrow) {
    const items: MenuAction[] = [
      ...(compact.shown ? [{ label: compact.label, run: compact.run, disabled: compact.disabled, title: compact.title }] : []),
      { label: 'Export as Markdown', run: () => void exportConversation(conversationId, 'markdown') },
      { label: 'Export as JSON', run: () => void exportConversation(conversationId, 'json') },
      { label: archiveLabel, run: archive },
      { label: 'Delete conversation', run: () => requestDelete(conversationId), danger: true },
    ];
    return (
      <>
        <ConversationMemory conversationId={conversationId} />
        <ActionMenu
          button={<span aria-hidden="true">⋯</span>}
          buttonLabel="More actions"
          buttonClassName="more-actions"
          menuLabel="More actions"
          items={items}
          resetKey={conversationId}
        />
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

import { memo, useState } from 'react';
import { isBusy } from '../../api/types';
import { createConversation, selectConversation } from '../../stores/actions';
import { useConversationsStore } from '../../stores/conversations';
import { useTasksStore } from '../../stores/tasks';
import { displayTitle } from '../chat/ChatHeader';

const ConversationRow = memo(function ConversationRow({ id }: { id: string }) {
  const title = useConversationsStore((s) => s.byId[id]?.title);
  const selected = useConversationsStore((s) => s.selectedId === id);
  const unread = useConversationsStore((s) => s.unread[id] ?? 0);
  const needsInput = useConversationsStore((s) => !!s.needsInput[id]);
  const live = useTasksStore((s) => {
    const tid = s.activeByConversation[id];
    const t = tid ? s.byId[tid] : undefined;
    return !!t && isBusy(t.status);
  });

  return (
    <li>
      <button
        type="button"
        className={`conv-row${selected ? ' is-selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => {
          if (!selected) void selectConversation(id);
        }}
      >
        <span className="conv-title">{displayTitle(title)}</span>
        <span className="conv-marks">
          {live && (
            <span className="live-dot" title="Working">
              <span className="sr-only">Working</span>
            </span>
          )}
          {needsInput && <span className="needs-input">Needs input</span>}
          {unread > 0 && (
            <span className="unread" title={`${unread} unread`}>
              {unread > 99 ? '99+' : unread}
              <span className="sr-only"> unread</span>
            </span>
          )}
        </span>
      </button>
    </li>
  );
});

export function Sidebar() {
  const order = useConversationsStore((s) => s.order);
  const listed = useConversationsStore((s) => s.listed);
  const [creating, setCreating] = useState(false);

  const onNew = async () => {
    setCreating(true);
    try {
      await createConversation();
    } finally {
      setCreating(false);
    }
  };

  return (
    <aside className="sidebar" aria-label="Conversations">
      <div className="sidebar-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Errand
        </div>
        <button type="button" className="btn btn-new" disabled={creating} onClick={() => void onNew()}>
          <span aria-hidden="true" className="plus">
            +
          </span>
          New conversation
        </button>
      </div>
      <nav className="conv-list-wrap" aria-label="Conversation list">
        {listed && order.length === 0 && <p className="muted sidebar-empty">No conversations yet.</p>}
        <ul className="conv-list">
          {order.map((id) => (
            <ConversationRow key={id} id={id} />
          ))}
        </ul>
      </nav>
    </aside>
  );
}

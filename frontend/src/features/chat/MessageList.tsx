import { useLayoutEffect, useMemo, useRef } from 'react';
import { useMessagesStore } from '../../stores/messages';
import { orderedMessages } from '../../stores/messagesReducer';
import { buildTranscript } from './transcript';
import { TranscriptItemView } from './TranscriptItemView';

const STICK_DISTANCE = 80;

export function MessageList({ conversationId }: { conversationId: string }) {
  const conv = useMessagesStore((s) => s.byConversation[conversationId]);
  const items = useMemo(() => (conv ? buildTranscript(orderedMessages(conv)) : []), [conv]);
  const ref = useRef<HTMLDivElement>(null);
  const stick = useRef(true);

  // A newly opened conversation starts at the bottom.
  useLayoutEffect(() => {
    stick.current = true;
  }, [conversationId]);

  // Follow new text while the user is at the bottom; leave them be if they scrolled up.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [items, conversationId]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE;
  };

  const loadingFirst = !conv || (!conv.loaded && conv.loading);

  return (
    <div className="message-scroll" ref={ref} onScroll={onScroll}>
      <div className="message-list" role="log" aria-label="Conversation" aria-live="off">
        {items.length === 0 && loadingFirst && <div className="empty-state muted">Loading…</div>}
        {items.length === 0 && !loadingFirst && (
          <div className="empty-state">
            <h2>What should Errand do?</h2>
            <p className="muted">
              Hand it a task. It works on its own over many steps, asks when it needs you, and you can stop it at
              any time. Turn off Agent mode for a simple chat reply.
            </p>
          </div>
        )}
        {items.map((item) => (
          <TranscriptItemView key={item.key} item={item} />
        ))}
      </div>
    </div>
  );
}

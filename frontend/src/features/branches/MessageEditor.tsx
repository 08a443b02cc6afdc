import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { editMessage } from '../../stores/branchActions';
import { startEditing } from './state';

/** The person's message, editable in place: Send starts a new branch from it. */
export function MessageEditor({ conversationId, messageId, text }: { conversationId: string; messageId: string; text: string }) {
  const [value, setValue] = useState(text);
  const [pending, setPending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const empty = value.trim() === '';
  const send = async () => {
    if (empty || pending) return;
    setPending(true);
    const ok = await editMessage(conversationId, messageId, value);
    setPending(false);
    if (ok) startEditing(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      startEditing(null);
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  return (
    <div className="message-editor">
      <textarea
        ref={ref}
        aria-label="Edited message"
        value={value}
        rows={Math.min(10, Math.max(2, value.split('\n').length))}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {empty && <p className="message-editor-hint">Write something to send, or cancel the edit.</p>}
      <div className="message-editor-actions">
        <button type="button" className="btn btn-ghost" onClick={() => startEditing(null)}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          aria-label="Send edited message"
          disabled={empty || pending}
          onClick={() => void send()}
        >
          Send
        </button>
      </div>
    </div>
  );
}

import { useState } from 'react';
import type { Message } from '../../api/types';
import { useMessagesStore } from '../../stores/messages';
import { messageOf, type ConversationMessages } from '../../stores/messagesReducer';
import { useTasksStore } from '../../stores/tasks';
import { regenerate } from '../../stores/branchActions';
import { openBranchDialog, openVariations, startEditing } from './state';
import { VersionArrows } from './VersionArrows';
import { SavePromptDialog } from '../prompts/SavePromptDialog';
import './branches.css';

/**
 * The last reply per conversation state. Every row's tools ask on every
 * store update; the state is replaced, never changed in place, so the
 * first row to ask scans and the others read the answer.
 */
const lastReplies = new WeakMap<ConversationMessages, string>();

/** The last reply of the branch shown: the one Regenerate and Variations act on. */
export function lastReplyId(c: ConversationMessages | undefined): string {
  if (!c) return '';
  let id = lastReplies.get(c);
  if (id === undefined) {
    id = scanLastReply(c);
    lastReplies.set(c, id);
  }
  return id;
}

function scanLastReply(c: ConversationMessages): string {
  if (c.hasNewer) return '';
  for (let i = c.ids.length - 1; i >= 0; i--) {
    const id = c.ids[i];
    const m = id === undefined ? undefined : messageOf(c, id);
    if (m?.role === 'assistant' && m.content !== '' && !m.streaming) return m.id;
    if (m?.role === 'user' && m.delivery !== 'queued') return '';
  }
  return '';
}

/**
 * A message's actions: its version arrows, and Edit message (the
 * person's), Regenerate and Variations (the last reply), Branch into new
 * conversation (any), Save as prompt (any with text).
 */
export function MessageTools({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const m: Message | undefined = useMessagesStore((s) => {
    const c = s.byConversation[conversationId];
    return c ? messageOf(c, messageId) : undefined;
  });
  const isLast = useMessagesStore((s) => lastReplyId(s.byConversation[conversationId]) === messageId);
  const busy = useTasksStore((s) => !!s.activeByConversation[conversationId]);
  const [saving, setSaving] = useState(false);
  if (!m || m.delivery === 'queued' || m.streaming) return null;
  const versions = m.versions ?? 0;
  return (
    <div className="message-tools">
      <VersionArrows conversationId={conversationId} messageId={m.id} version={m.version ?? 0} versions={versions} busy={busy} />
      {m.role === 'user' && (
        <button type="button" className="message-tool" disabled={busy} onClick={() => startEditing(m.id)}>
          Edit message
        </button>
      )}
      {isLast && !busy && (
        <>
          <button type="button" className="message-tool" onClick={() => void regenerate(conversationId)}>
            Regenerate
          </button>
          <button type="button" className="message-tool" onClick={() => openVariations(conversationId, m.id)}>
            Variations
          </button>
        </>
      )}
      <button type="button" className="message-tool" onClick={() => openBranchDialog(conversationId, m.id)}>
        Branch into new conversation
      </button>
      {m.content.trim() !== '' && (
        <button type="button" className="message-tool" onClick={() => setSaving(true)}>
          Save as prompt
        </button>
      )}
      {saving && <SavePromptDialog text={m.content} onClose={() => setSaving(false)} />}
    </div>
  );
}

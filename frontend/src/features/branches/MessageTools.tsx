import { useState } from 'react';
import type { Message } from '../../api/types';
import { useMessagesStore } from '../../stores/messages';
import { messageOf } from '../../stores/messagesReducer';
import { useTaskAtWorkLater } from '../../stores/tasks';
import { deleteBranch, regenerate } from '../../stores/branchActions';
import { askConfirm } from '../../stores/confirm';
import { openBranchDialog, openVariations, startEditing } from './state';
import { VersionArrows } from './VersionArrows';
import { lazyView } from '../../components/LazyView';
import './branches.css';

const SavePromptDialog = lazyView('Save as prompt', () =>
  import('../prompts/SavePromptDialog').then((m) => m.SavePromptDialog),
);

/** Asks before deleting a version and everything after it. */
async function confirmDeleteBranch(conversationId: string, messageId: string): Promise<void> {
  const ok = await askConfirm({
    title: 'Delete this branch?',
    text: 'This version of the message and everything after it on its branch are deleted. The other versions stay.',
    confirmLabel: 'Delete branch',
    cancelLabel: 'Cancel',
  });
  if (ok) await deleteBranch(conversationId, messageId);
}

/**
 * A message's tree actions: its version arrows, and Edit message (the
 * person's), Regenerate and Variations (any reply), Delete branch (a
 * message with other versions), Branch into new conversation (any),
 * Save as prompt (any with text).
 */
export function MessageTools({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  const m: Message | undefined = useMessagesStore((s) => {
    const c = s.byConversation[conversationId];
    return c ? messageOf(c, messageId) : undefined;
  });
  const busy = useTaskAtWorkLater(conversationId);
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
      {m.role === 'assistant' && m.content !== '' && !busy && (
        <>
          <button type="button" className="message-tool" onClick={() => void regenerate(conversationId, '', m.id)}>
            Regenerate
          </button>
          <button type="button" className="message-tool" onClick={() => openVariations(conversationId, m.id)}>
            Variations
          </button>
        </>
      )}
      {versions > 1 && (
        <button type="button" className="message-tool" disabled={busy} onClick={() => void confirmDeleteBranch(conversationId, m.id)}>
          Delete branch
        </button>
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

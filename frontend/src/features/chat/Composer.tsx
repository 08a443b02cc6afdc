import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { isBusy } from '../../api/types';
import type { ConversationMode } from '../../api/types';
import { queueMessage, replyToTask, sendMessage, setMode, stopAsksFirst, stopTaskConfirmed } from '../../stores/actions';
import { useConversationsStore } from '../../stores/conversations';
import { endConversation } from '../../stores/conversationState';
import { useDraftsStore } from '../../stores/drafts';
import { useConversationAgent } from '../../stores/agents';
import { useActiveTask } from '../../stores/tasks';
import { useMessagesStore } from '../../stores/messages';
import { hasSpoken, openingLocked, windowShape } from '../agents/windowShape';
import { composerBlocked } from '../tasks/format';
import { addFiles, readyIds } from '../../stores/attachmentActions';
import { useFilesOf } from '../../stores/composerFiles';
import { AttachButton } from '../attachments/AttachButton';
import { ComposerFiles } from '../attachments/ComposerFiles';
import { ModeControl } from '../mode/ModeControl';
import { useSlashMenu } from '../prompts/useSlashMenu';

export function Composer({ conversationId }: { conversationId: string }) {
  const mode = useConversationsStore((s) => s.byId[conversationId]?.mode ?? 'auto');
  const text = useDraftsStore((s) => s.drafts[conversationId] ?? '');
  const setDraft = useDraftsStore((s) => s.setDraft);
  const task = useActiveTask(conversationId);
  const agentId = useConversationsStore((s) => s.byId[conversationId]?.agentId);
  const agent = useConversationAgent(task?.agentId || agentId);
  const files = useFilesOf(conversationId);
  const [pending, setPending] = useState(false);
  const [modePending, setModePending] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  const busy = !!task && isBusy(task.status);
  // An approval card or a pause waits above: a message is queued, and its Send now delivers it.
  const holding = task?.status === 'waiting_approval' || task?.status === 'paused';
  const waiting = task?.status === 'waiting_user';
  // An approval, a paused limit or an interrupted task: the card above decides.
  const blocked = composerBlocked(task);
  // The agent's word on the composer: its last question's or update's input
  // hint, else its definition's (canUserType) while a task is on.
  const hint = task?.input;
  // A proactive agent's opening holds it until the agent has spoken.
  const spoken = useMessagesStore((s) => !task || task.originalPrompt !== '' || hasSpoken(s.byConversation[conversationId], task.id));
  const opening = openingLocked(agent, task, spoken);
  const held = opening || (!!task && (hint?.disabled ?? (agent ? !agent.canUserType && waiting : false)));
  const { showEndButton } = windowShape(agent, task?.input);
  // Files go with a message (sent or queued), not with an answer; none while one is still being checked.
  const checking = files.some((f) => f.state === 'checking');
  const withFiles = !waiting && files.some((f) => f.state === 'ready');
  // While the agent works, what the person sends is queued for its next step.
  const canSubmit = !pending && !checking && (text.trim() !== '' || withFiles) && !blocked && !held;
  const endable = !!agent?.allowEarlyTermination;

  // When the agent asks something, put the cursor where the answer goes.
  useEffect(() => {
    if (waiting && (document.activeElement === document.body || document.activeElement === null)) {
      textareaRef.current?.focus();
    }
  }, [waiting, task?.id]);

  // Grow with the text, up to a limit (CSS caps it with max-height).
  useLayoutEffect(() => {
    const el = textareaRef.current;
    if (!el) return;
    el.style.height = 'auto';
    if (el.scrollHeight > 0) el.style.height = `${el.scrollHeight}px`;
  }, [text]);

  const run = async (fn: () => Promise<boolean>) => {
    setPending(true);
    try {
      return await fn();
    } finally {
      setPending(false);
    }
  };

  const submit = async () => {
    if (!canSubmit) return;
    const ok = waiting && task
      ? await run(() => replyToTask(conversationId, task.id, text))
      : busy || holding
        ? await run(() => queueMessage(conversationId, text, readyIds(conversationId)))
        : await run(() => sendMessage(conversationId, text, readyIds(conversationId)));
    if (ok) textareaRef.current?.focus();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  // "/" in an empty composer: the saved prompts and the /task and /chat commands.
  const slash = useSlashMenu(text, !waiting && !blocked && !held, (t) => setDraft(conversationId, t));

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(e)) return;
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  // A pasted image (or files copied in a file manager) becomes an attachment;
  // text pasted with it still goes into the text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...e.clipboardData.files];
    if (pasted.length === 0) return;
    if (!e.clipboardData.types.includes('text/plain')) e.preventDefault();
    void addFiles(conversationId, pasted);
  };

  // A press on Stop leaves the focus where it is (the message box, most
  // often): the button goes with the task it stops, and a press that
  // focused it first moved the focus twice around the click (out of the
  // message box, then back in before the button goes).
  //
  // A task at work stops at the press: WebKitGTK sends the page a release
  // only once the page has answered the press, so a click comes a frame or
  // two of a streaming reply later (the twenty-ninth step in
  // docs/BENCHMARKS.md). The press shows the task stopped, so the button
  // is gone before the release and no click follows. A task that waits
  // for the person asks first, and End conversation is no hurry: those,
  // and Stop from the keyboard, act at the click.
  const stopsAtPress = !!task && busy && !endable && !stopAsksFirst(task);
  const onStopPress = (e: MouseEvent<HTMLButtonElement>) => {
    e.preventDefault();
    if (stopsAtPress && e.button === 0) onStop(e);
  };
  const onStop = (e: MouseEvent<HTMLButtonElement>) => {
    // Focused (by the keyboard), the button hands the focus to the message
    // box before it goes: removed while it has the focus, it would make the
    // page lay out the whole window in the click's own frame to find where
    // the focus goes.
    if (document.activeElement === e.currentTarget) textareaRef.current?.focus({ preventScroll: true });
    // End conversation ends it (its task stopped), marked as ended by the person.
    if (endable) void run(() => endConversation(conversationId));
    else if (task) void run(() => stopTaskConfirmed(task));
  };

  // The same function while the conversation is: the mode control renders
  // again only when the mode does, not at each key or task change.
  const onMode = useCallback(
    (m: ConversationMode) => {
      setModePending(true);
      void setMode(conversationId, m).finally(() => setModePending(false));
    },
    [conversationId],
  );

  const placeholder = blocked
    ? blocked.placeholder
    : opening
    ? `${agent?.name ?? 'The agent'} speaks first…`
    : hint?.placeholder
    ? hint.placeholder
    : held
    ? 'Answer above'
    : waiting
    ? task?.pendingQuestion || 'The agent is waiting for your answer'
    : holding
    ? 'A message sent now waits for the card above (its Send now delivers it at once)'
    : busy
      ? 'The agent is working… a message sent now reaches it at its next step'
      : mode === 'agent'
        ? `Hand ${agent?.name ?? 'Errand'} a task…`
        : mode === 'auto'
          ? 'Ask, or hand over a task… (/task or /chat to choose)'
          : 'Send a message…';

  return (
    <form className={`composer${waiting ? ' composer-waiting' : ''}`} onSubmit={onSubmit}>
      <div className="composer-box">
        <ComposerFiles conversationId={conversationId} />
        {slash.menu}
        <textarea
          ref={textareaRef}
          aria-label="Message"
          className="composer-input"
          rows={1}
          value={text}
          placeholder={placeholder}
          disabled={!!blocked || held}
          aria-describedby={blocked ? `${conversationId}-composer-blocked` : undefined}
          onChange={(e) => setDraft(conversationId, e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          {...slash.fieldProps}
        />
        <div className="composer-bar">
          <AttachButton conversationId={conversationId} disabled={!!blocked || held || waiting} />
          <ModeControl value={mode} disabled={modePending} onChange={onMode} />
          {blocked ? (
            <span id={`${conversationId}-composer-blocked`} className="composer-hint composer-blocked">
              {blocked.hint}
            </span>
          ) : (
            <span className="composer-hint muted" aria-hidden="true">
              Enter to send · Shift+Enter for a new line
            </span>
          )}
          <div className="composer-actions">
            {(busy || waiting) && showEndButton && (
              <button type="button" className="btn btn-stop" disabled={pending} onMouseDown={onStopPress} onClick={onStop}>
                <span className="stop-square" aria-hidden="true" />
                {endable ? 'End conversation' : 'Stop'}
              </button>
            )}
            {waiting && !held && (
              <button type="submit" className="btn btn-primary" disabled={!canSubmit}>
                Reply
              </button>
            )}
            {!waiting && (
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!canSubmit}
                title={busy || holding ? 'Queued: the agent reads it at its next step, without stopping' : undefined}
              >
                Send
              </button>
            )}
          </div>
        </div>
      </div>
    </form>
  );
}

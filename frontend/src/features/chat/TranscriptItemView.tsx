import { memo, useId, useState, type Ref } from 'react';
import type { Delivery } from '../../api/types';
import { isTerminal } from '../../api/types';
import { useActiveTask, useTasksStore } from '../../stores/tasks';
import { useMessagesStore } from '../../stores/messages';
import { lastUserMessageId } from '../../stores/messagesReducer';
import { sendQueuedNow } from '../../stores/actions';
import { CopyButton, Markdown } from '../../components/Markdown';
import { TaskEndFiles } from '../checkpoints/TaskEndFiles';
import { CompleteRow } from './CompleteRow';
import { SummaryMarker } from './SummaryMarker';
import { ThinkingBlock } from './ThinkingBlock';
import { questionEndLabel } from './toolCall';
import { ToolCallRow } from './ToolCallRow';
import { DecisionLine } from '../mode/DecisionLine';
import { type TranscriptItem } from './transcript';
import { MessageTools } from '../branches/MessageTools';
import { AnswerFields, useShownAnswer } from '../agents/FormAnswer';
import { useBranchUI } from '../branches/state';
import { MessageAttachments } from '../attachments/MessageAttachments';
import { lazyView } from '../../components/LazyView';
import { blink, TypingDots, useTick } from '../../components/Motion';
import { useUntilPainted } from '../../lib/usePainted';

const MessageEditor = lazyView('the editor', () => import('../branches/MessageEditor').then((m) => m.MessageEditor));
// The question the agent waits on loads once the first screen is painted.
const LiveQuestion = lazyView('the question', () => import('../agents/QuestionWidget').then((m) => m.LiveQuestion), {
  prefetch: true,
});

/** A message from the person this long is folded until they open it. */
export const FOLD_CHARS = 900;
export const FOLD_LINES = 14;

function PersonText({ text }: { text: string }) {
  const long = text.length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!long) return <p className="text">{text}</p>;
  return (
    <>
      <p id={id} className={`text${open ? '' : ' text-folded'}`}>
        {text}
      </p>
      <button type="button" className="fold-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {open ? 'Show less' : 'Show all'}
      </button>
    </>
  );
}

function StepBadge({ step, taskId = '' }: { step: number; taskId?: string }) {
  // A chat reply is one step of no interest: no agent chrome.
  const chat = useTasksStore((s) => (taskId ? s.byId[taskId]?.mode === 'chat' : false));
  if (step <= 0 || chat) return null;
  return <span className="badge badge-step">Step {step}</span>;
}

type AgentItem = Extract<TranscriptItem, { kind: 'agent' }>;
type RowAttrs = { ref?: Ref<HTMLDivElement>; 'data-index'?: number; 'data-found'?: true };

/** The agent's reply: while it is written, dots until its first text, then a blinking caret. */
function AgentReply({ row, item, conversationId }: { row: RowAttrs; item: AgentItem; conversationId: string }) {
  // Once its task has ended (a Stop shows at once), the reply is written no
  // more: no caret and no dots, though its end may still be on its way
  // (sync.ts holds it).
  const ended = useTasksStore((s) => {
    const task = s.byId[item.taskId];
    return !!task && isTerminal(task.status);
  });
  const writing = item.streaming && !ended;
  // Stopped, its text stays as it was until the frame that shows it stopped
  // is on the screen: the render of what came meanwhile (in a long reply,
  // parsing its last blocks) would otherwise come before that frame.
  const hold = useUntilPainted(item.streaming && ended);
  const bubble = useTick<HTMLDivElement>(blink, writing);
  return (
    <div {...row} className="row row-agent">
      <div ref={bubble} className={`bubble bubble-agent${writing ? ' is-streaming' : ''}`}>
        <StepBadge step={item.step} taskId={item.taskId} />
        {item.text === '' && writing ? (
          <p className="text">
            <TypingDots />
          </p>
        ) : (
          <Markdown text={item.text} grown={item.grown} streaming={item.streaming} hold={hold} />
        )}
      </div>
      {!item.streaming && item.text !== '' && <CopyButton text={item.text} label="Copy message" className="message-copy" />}
      {!item.streaming && <MessageTools conversationId={conversationId} messageId={item.key} />}
    </div>
  );
}

interface RowProps {
  /** The virtualized list measures each row through this ref. */
  rowRef?: Ref<HTMLDivElement>;
  index?: number;
}

function Collapsible({
  label,
  body,
  tone = 'neutral',
  rowRef,
  index,
}: RowProps & {
  label: string;
  body: string;
  tone?: 'neutral' | 'error';
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div ref={rowRef} data-index={index} className={`tool-row${tone === 'error' ? ' tool-row-error' : ''}`}>
      <button
        type="button"
        className="tool-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="chevron" aria-hidden="true">
          ›
        </span>
        <span className="tool-label">{label}</span>
      </button>
      {open && (
        <pre id={id} className="tool-body">
          {body === '' ? '(empty)' : body}
        </pre>
      )}
    </div>
  );
}

/** A question's choices, or, while its task waits for the answer, the live widget. */
function QuestionBody({ item }: { item: Extract<TranscriptItem, { kind: 'question' }> }) {
  const live = useTasksStore((s) => {
    const t = s.byId[item.taskId];
    return !!t && t.status === 'waiting_user' && t.pendingQuestion === item.question;
  });
  if (live) return <LiveQuestion taskId={item.taskId} question={item.question} />;
  if (item.choices.length === 0) return null;
  return (
    <ul className="card-choices" aria-label="Choices offered">
      {item.choices.map((c, i) => (
        <li key={`${i}:${c}`}>{c}</li>
      ))}
    </ul>
  );
}

/**
 * Where a message sent while the agent worked is: queued, or not delivered.
 * Queued while an approval card or a pause waits, Send now delivers it at
 * once (the call is denied for it; the paused task goes on with it). Not
 * delivered (its task ended first), the person's last message has Send
 * now while no task runs: a task answers it.
 */
function DeliveryLabel({ delivery, conversationId, messageId }: { delivery: Delivery; conversationId: string; messageId: string }) {
  const status = useActiveTask(conversationId)?.status;
  const last = useMessagesStore((s) => lastUserMessageId(s.byConversation[conversationId]) === messageId);
  const [pending, setPending] = useState(false);
  const canSend = delivery === 'queued' ? status === 'waiting_approval' || status === 'paused' : !status && last;
  const sendNow = async () => {
    setPending(true);
    await sendQueuedNow(conversationId, messageId);
    setPending(false);
  };
  const button = canSend && (
    <button type="button" className="btn btn-small" disabled={pending} onClick={() => void sendNow()}>
      Send now
    </button>
  );
  return delivery === 'queued' ? (
    <span className="delivery-label" title="The agent reads it at its next step">
      Queued
      {button}
    </span>
  ) : (
    <span className="delivery-label delivery-missed" title="The task ended before reading it">
      Not delivered · the next task you start sees it
      {button}
    </span>
  );
}

/** The person's message: its bubble with its tools, or, while they edit it, the editor. */
function UserRow({
  row,
  conversationId,
  item,
}: {
  row: RowAttrs;
  conversationId: string;
  item: Extract<TranscriptItem, { kind: 'user' }>;
}) {
  const editing = useBranchUI((s) => s.editing === item.key);
  if (editing) {
    return (
      <div {...row} className="row row-user">
        <MessageEditor conversationId={conversationId} messageId={item.key} text={item.text} />
      </div>
    );
  }
  return (
    <div {...row} className="row row-user">
      <div className="bubble bubble-user">
        {item.attachments && <MessageAttachments attachments={item.attachments} />}
        {item.text !== '' && <PersonText text={item.text} />}
      </div>
      {item.text !== '' && <CopyButton text={item.text} label="Copy message" className="message-copy" />}
      {item.delivery && <DeliveryLabel delivery={item.delivery} conversationId={conversationId} messageId={item.key} />}
      {!item.delivery && <MessageTools conversationId={conversationId} messageId={item.key} />}
    </div>
  );
}

/** A question's answer: a form's as its labelled fields, anything else as the text. */
function AnswerRow({
  row,
  conversationId,
  item,
}: {
  row: RowAttrs;
  conversationId: string;
  item: Extract<TranscriptItem, { kind: 'answer' }>;
}) {
  const shown = useShownAnswer(conversationId, item);
  return (
    <div {...row} className="row row-user">
      <div className="bubble bubble-user bubble-answer">
        <span className="bubble-kicker">Your answer</span>
        {shown.fields ? <AnswerFields fields={shown.fields} /> : <PersonText text={shown.text} />}
      </div>
      <CopyButton text={shown.text} label="Copy message" className="message-copy" />
    </div>
  );
}

/**
 * One transcript item. Memoized on the item object, which transcript.ts
 * caches per stored message: while a reply streams, only its row renders.
 */
export const TranscriptItemView = memo(function TranscriptItemView({
  conversationId,
  item,
  rowRef,
  index,
  found,
}: RowProps & { conversationId: string; item: TranscriptItem; found?: boolean }) {
  // found: the message a search opened, marked for a moment.
  const row = { ref: rowRef, 'data-index': index, 'data-found': found || undefined };
  switch (item.kind) {
    case 'user':
      return <UserRow row={row} conversationId={conversationId} item={item} />;
    case 'answer':
      return <AnswerRow row={row} conversationId={conversationId} item={item} />;
    case 'decision':
      return <DecisionLine rowRef={rowRef} index={index} conversationId={conversationId} taskId={item.taskId} messageId={item.messageId} />;
    case 'notice':
      // A task's failure: its reason is in the failed card (and the
      // status line says Failed); here, a row that opens to it. A notice
      // that ended its task shows the files the task changed.
      return (
        <div {...row}>
          {item.tone === 'error' ? (
            <Collapsible label="The task failed" body={item.text} tone="error" />
          ) : (
            <div className="notice-row">
              <span className="notice-text text">{item.text}</span>
            </div>
          )}
          {item.taskId && item.at && <TaskEndFiles taskId={item.taskId} at={item.at} />}
        </div>
      );
    case 'summary':
      return <SummaryMarker summaryId={item.summaryId} rowRef={rowRef} index={index} />;
    case 'agent':
      if (item.cutOff) {
        return (
          <Collapsible rowRef={rowRef} index={index} label="A reply cut off before its end" body={item.text} />
        );
      }
      return <AgentReply row={row} item={item} conversationId={conversationId} />;
    case 'thinking':
      return <ThinkingBlock item={item} rowRef={rowRef} index={index} badge={<StepBadge step={item.step} taskId={item.taskId} />} />;
    case 'update':
      return (
        <div {...row} className="row row-agent">
          <div className="bubble bubble-update">
            <span className="bubble-kicker">
              Update <StepBadge step={item.step} />
            </span>
            <Markdown text={item.text} />
          </div>
        </div>
      );
    case 'question':
      return (
        <div {...row} className="row row-agent">
          <div className="card card-question">
            <span className="card-kicker">
              Question <StepBadge step={item.step} />
            </span>
            <Markdown text={item.question} />
            <QuestionBody item={item} />
          </div>
        </div>
      );
    case 'complete':
      return (
        <CompleteRow conversationId={conversationId} item={item} rowRef={rowRef} index={index} badge={<StepBadge step={item.step} />} />
      );
    case 'toolCall':
      return <ToolCallRow conversationId={conversationId} item={item} rowRef={rowRef} index={index} />;
    case 'toolResult':
      return (
        <Collapsible
          rowRef={rowRef}
          index={index}
          label={questionEndLabel(item.outcome)}
          body={item.content}
          tone={item.outcome ? 'neutral' : 'error'}
        />
      );
  }
});

import { memo, useId, useState, type Ref } from 'react';
import { ToolBody } from '../mcp/ToolBody';
import { LiveQuestion } from '../agents/QuestionWidget';
import { Markdown } from './Markdown';
import { useTasksStore } from '../../stores/tasks';
import { SummaryMarker } from './SummaryMarker';
import { formatArgs, type TranscriptItem } from './transcript';

function StepBadge({ step }: { step: number }) {
  if (step <= 0) return null;
  return <span className="badge badge-step">Step {step}</span>;
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
        <ToolBody id={id} text={body} />
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
 * One transcript item. Memoized on the item object, which transcript.ts
 * caches per stored message: while a reply streams, only its row renders.
 */
export const TranscriptItemView = memo(function TranscriptItemView({
  item,
  rowRef,
  index,
  found,
}: RowProps & { item: TranscriptItem; found?: boolean }) {
  // found: the message a search opened, marked for a moment.
  const row = { ref: rowRef, 'data-index': index, 'data-found': found || undefined };
  switch (item.kind) {
    case 'user':
    case 'answer':
      return (
        <div {...row} className="row row-user">
          <div className={`bubble bubble-user${item.kind === 'answer' ? ' bubble-answer' : ''}`}>
            {item.kind === 'answer' && <span className="bubble-kicker">Your answer</span>}
            <p className="text">{item.text}</p>
          </div>
        </div>
      );
    case 'notice':
      return (
        <div {...row} className={`notice-row${item.tone === 'error' ? ' notice-error' : ''}`}>
          <span className="notice-text text">{item.text}</span>
        </div>
      );
    case 'summary':
      return <SummaryMarker summaryId={item.summaryId} rowRef={rowRef} index={index} />;
    case 'agent':
      return (
        <div {...row} className="row row-agent">
          <div className={`bubble bubble-agent${item.streaming ? ' is-streaming' : ''}`}>
            <StepBadge step={item.step} />
            {item.text === '' && item.streaming ? (
              <p className="text">
                <span className="typing" role="img" aria-label="Writing">
                  <span />
                  <span />
                  <span />
                </span>
              </p>
            ) : (
              <Markdown text={item.text} streaming={item.streaming} />
            )}
          </div>
        </div>
      );
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
        <div {...row} className="row row-agent">
          <div className="card card-complete">
            <span className="card-kicker">
              <span className="badge badge-complete">
                <svg viewBox="0 0 16 16" width="11" height="11" aria-hidden="true">
                  <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
                Task complete
              </span>
              <StepBadge step={item.step} />
            </span>
            <Markdown text={item.summary} />
          </div>
        </div>
      );
    case 'toolCall':
      return <Collapsible rowRef={rowRef} index={index} label={`Used tool ${item.name}`} body={formatArgs(item.args)} />;
    case 'toolResult':
      return (
        <Collapsible
          rowRef={rowRef}
          index={index}
          label={item.isError ? `Tool ${item.name} failed` : `Result of ${item.name}`}
          body={item.content}
          tone={item.isError ? 'error' : 'neutral'}
        />
      );
  }
});

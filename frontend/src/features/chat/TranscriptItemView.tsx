import { memo, useId, useState } from 'react';
import { formatArgs, type TranscriptItem } from './transcript';

function StepBadge({ step }: { step: number }) {
  if (step <= 0) return null;
  return <span className="badge badge-step">Step {step}</span>;
}

function Collapsible({
  label,
  body,
  tone = 'neutral',
}: {
  label: string;
  body: string;
  tone?: 'neutral' | 'error';
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={`tool-row${tone === 'error' ? ' tool-row-error' : ''}`}>
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

export const TranscriptItemView = memo(function TranscriptItemView({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
    case 'answer':
      return (
        <div className="row row-user">
          <div className={`bubble bubble-user${item.kind === 'answer' ? ' bubble-answer' : ''}`}>
            {item.kind === 'answer' && <span className="bubble-kicker">Your answer</span>}
            <p className="text">{item.text}</p>
          </div>
        </div>
      );
    case 'notice':
      return (
        <div className={`notice-row${item.tone === 'error' ? ' notice-error' : ''}`}>
          <span className="notice-text text">{item.text}</span>
        </div>
      );
    case 'agent':
      return (
        <div className="row row-agent">
          <div className={`bubble bubble-agent${item.streaming ? ' is-streaming' : ''}`}>
            <StepBadge step={item.step} />
            <p className="text">
              {item.text}
              {item.streaming && <span className="cursor" aria-hidden="true" />}
            </p>
          </div>
        </div>
      );
    case 'update':
      return (
        <div className="row row-agent">
          <div className="bubble bubble-update">
            <span className="bubble-kicker">
              Update <StepBadge step={item.step} />
            </span>
            <p className="text">{item.text}</p>
          </div>
        </div>
      );
    case 'question':
      return (
        <div className="row row-agent">
          <div className="card card-question">
            <span className="card-kicker">Question</span>
            <p className="text">{item.question}</p>
            {item.choices.length > 0 && (
              <p className="card-choices text">Choices: {item.choices.join(' · ')}</p>
            )}
          </div>
        </div>
      );
    case 'complete':
      return (
        <div className="row row-agent">
          <div className="card card-complete">
            <span className="badge badge-complete">Task complete</span>
            <p className="text">{item.summary}</p>
          </div>
        </div>
      );
    case 'toolCall':
      return <Collapsible label={`Used tool ${item.name}`} body={formatArgs(item.args)} />;
    case 'toolResult':
      return (
        <Collapsible
          label={item.isError ? `Tool ${item.name} failed` : `Result of ${item.name}`}
          body={item.content}
          tone={item.isError ? 'error' : 'neutral'}
        />
      );
  }
});

import { useEffect, useRef } from 'react';
import type { Task } from '../../api/types';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import type { ErrorReport } from '../../lib/errorDetails';
import { usePending } from '../../lib/usePending';
import { stopTask } from '../../stores/actions';
import { continueTask, dismissTask, resumeTask, retryTask } from '../../stores/taskActions';
import { LiveQuestion } from '../agents/QuestionWidget';
import { pauseReasonText } from './format';

/** Focuses the card when nothing else has the focus (the composer was disabled under the person). */
function useFocusWhenIdle() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus({ preventScroll: true });
  }, []);
  return ref;
}

/** A task paused at a limit (or because it repeated itself): continue or stop. */
export function PauseCard({ task }: { task: Task }) {
  const { pending, run } = usePending();
  const ref = useFocusWhenIdle();
  const question = task.pendingQuestion || 'The task reached a limit. Let it continue, or stop it?';
  return (
    <section ref={ref} className="agent-card pause-card tone-warn" role="region" aria-label="Task paused" tabIndex={-1}>
      <header className="agent-card-head">
        <h2 className="agent-card-title">Paused</h2>
        <span className="risk-badge risk-warn">{pauseReasonText(task.pauseReason)}</span>
      </header>
      <p className="agent-card-text text">{question}</p>
      <div className="agent-card-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={pending}
          onClick={() => void run(() => continueTask(task.id))}
        >
          Continue
        </button>
        <span className="agent-card-spacer" />
        <button type="button" className="btn btn-stop" disabled={pending} onClick={() => void run(() => stopTask(task.id))}>
          <span className="stop-square" aria-hidden="true" />
          Stop
        </button>
      </div>
    </section>
  );
}

/**
 * A question a running tool asks (an MCP server's elicitation): its text,
 * and its form or choices; a plain question is answered in the composer.
 */
export function ToolQuestionCard({ task }: { task: Task }) {
  const question = task.pendingQuestion ?? '';
  return (
    <section className="agent-card question-card" role="region" aria-label={`${task.currentTool} asks`}>
      <header className="agent-card-head">
        <h2 className="agent-card-title">{task.currentTool} asks</h2>
      </header>
      <p className="agent-card-text text">{question}</p>
      <LiveQuestion taskId={task.id} question={question} />
    </section>
  );
}

/** What "Copy details" of a failed task copies: its error, id, model and when it ended. */
export function failedTaskReport(task: Task): ErrorReport {
  return {
    message: task.errorMessage || 'The task ended with an error.',
    taskId: task.id,
    model: task.model || undefined,
    time: task.endedAt ?? task.startedAt,
  };
}

/** A task that failed: what went wrong, and Retry from the last completed step. */
export function FailedCard({ task }: { task: Task }) {
  const { pending, run } = usePending();
  const report = failedTaskReport(task);
  return (
    <section className="agent-card failed-card tone-danger" role="region" aria-label="Task failed">
      <header className="agent-card-head">
        <h2 className="agent-card-title">The task failed</h2>
      </header>
      <p className="agent-card-error text">{report.message}</p>
      <p className="agent-card-note muted">
        Retry picks up from the last completed step: tool calls that finished are not run again.
      </p>
      <div className="agent-card-actions">
        <button type="button" className="btn btn-primary" disabled={pending} onClick={() => void run(() => retryTask(task))}>
          Retry
        </button>
        <CopyDetailsButton report={report} />
      </div>
    </section>
  );
}

/** A task cut off when Errand closed: it holds its conversation until resumed or dismissed. */
export function InterruptedCard({ task }: { task: Task }) {
  const { pending, run } = usePending();
  const ref = useFocusWhenIdle();
  return (
    <section
      ref={ref}
      className="agent-card interrupted-card tone-warn"
      role="region"
      aria-label="Task interrupted"
      tabIndex={-1}
    >
      <header className="agent-card-head">
        <h2 className="agent-card-title">Interrupted when Errand closed</h2>
      </header>
      <p className="agent-card-text">
        Errand closed while this task was working. Resume continues from the last completed step; a tool that was
        running when Errand closed is not run again (the agent is told it was cut off). Dismiss ends the task.
      </p>
      <div className="agent-card-actions">
        <button type="button" className="btn btn-primary" disabled={pending} onClick={() => void run(() => resumeTask(task))}>
          Resume
        </button>
        <button type="button" className="btn btn-ghost" disabled={pending} onClick={() => void run(() => dismissTask(task))}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

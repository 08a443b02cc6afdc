import { useState } from 'react';
import type { Plan } from '../../api/types';
import { currentStep, planLabel, planProgress, STATUS_LABEL } from './plan';
import { lazyView } from '../../components/LazyView';
import './plan.css';

const PlanHistory = lazyView('the plan history', () => import('./PlanHistory').then((m) => m.PlanHistory));

const MARK = { pending: '○', in_progress: '◐', done: '✓', skipped: '–' } as const;

/**
 * The task's plan pinned above the transcript: a checklist with its
 * progress ("Plan · 2 of 5"), folded and unfolded by its header; once its
 * task has ended it starts folded (one line). "Plan history" opens the
 * earlier revisions once the plan was revised.
 */
export function PlanChecklist({ plan, ended = false }: { plan: Plan; ended?: boolean }) {
  const [open, setOpen] = useState(!ended);
  const [history, setHistory] = useState(false);
  const { done, total } = planProgress(plan);
  const current = currentStep(plan);
  return (
    <section className="plan" aria-label="Plan">
      <div className="plan-row">
        <button type="button" className="plan-head" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          <span className="plan-label">{planLabel(plan)}</span>
          {!open && current && <span className="plan-current">{current.title}</span>}
          <span className="plan-bar" aria-hidden="true">
            <span className="plan-bar-fill" style={{ width: `${total ? (100 * done) / total : 0}%` }} />
          </span>
        </button>
        {plan.revision > 1 && (
          <button type="button" className="link-btn plan-history-btn" onClick={() => setHistory(true)}>
            Plan history
          </button>
        )}
      </div>
      {history && <PlanHistory taskId={plan.taskId} onClose={() => setHistory(false)} />}
      {open && (
        <ol className="plan-steps">
          {plan.steps.map((step, i) => (
            <li
              key={i}
              className={`plan-step is-${step.status}`}
              aria-current={step === current ? 'step' : undefined}
            >
              <span className="plan-mark" aria-hidden="true">
                {MARK[step.status]}
              </span>
              <span className="plan-title">{step.title}</span>
              <span className="sr-only">, {STATUS_LABEL[step.status]}</span>
            </li>
          ))}
        </ol>
      )}
      {open && plan.note && <p className="plan-note">{plan.note}</p>}
    </section>
  );
}

/** The plan on a conversation's row in the list while its task runs: progress and the current step. */
export function PlanBadge({ plan }: { plan: Plan }) {
  const current = currentStep(plan);
  return (
    <span className="plan-badge" title={current ? current.title : undefined}>
      {planLabel(plan)}
      {current && <span className="plan-badge-step"> · {current.title}</span>}
    </span>
  );
}

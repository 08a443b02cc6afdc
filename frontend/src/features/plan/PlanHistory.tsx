import { useEffect, useId, useState } from 'react';
import * as api from '../../api';
import { toApiError, type Plan } from '../../api';
import { Modal } from '../../components/Modal';
import { timeValue } from '../../lib/time';
import { planChanges, planLabel, STATUS_LABEL } from './plan';

/** "Plan history": every revision of a task's plan, newest first, each with what changed from the one before. */
export function PlanHistory({ taskId, onClose }: { taskId: string; onClose(): void }) {
  const [revisions, setRevisions] = useState<Plan[] | null>(null);
  const [error, setError] = useState('');
  const titleId = useId();
  useEffect(() => {
    api.planHistory(taskId).then(setRevisions, (err: unknown) => setError(toApiError(err).message));
  }, [taskId]);
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="plan-history">
      <h2 id={titleId} className="modal-title">
        Plan history
      </h2>
      {error !== '' && <p role="alert">{error}</p>}
      {error === '' && !revisions && <p className="muted">Loading…</p>}
      <ol className="plan-revisions" reversed>
        {revisions
          ?.map((p, i) => <Revision key={p.revision} plan={p} prev={revisions[i - 1] ?? null} />)
          .reverse()}
      </ol>
      <div className="modal-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

function Revision({ plan, prev }: { plan: Plan; prev: Plan | null }) {
  return (
    <li className="plan-revision">
      <h3 className="plan-revision-head">
        Revision {plan.revision} · {planLabel(plan)} · <time dateTime={plan.updatedAt}>{new Date(timeValue(plan.updatedAt)).toLocaleTimeString()}</time>
      </h3>
      <ul className="plan-changes" aria-label={`What changed in revision ${plan.revision}`}>
        {planChanges(prev, plan).map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <ol className="plan-revision-steps">
        {plan.steps.map((s, i) => (
          <li key={i} className={`is-${s.status}`}>
            {s.title} <span className="muted">({STATUS_LABEL[s.status]})</span>
          </li>
        ))}
      </ol>
      {plan.note && <p className="plan-note">{plan.note}</p>}
    </li>
  );
}

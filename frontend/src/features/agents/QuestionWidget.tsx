import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { FormField, Task } from '../../api/types';
import { useTasksStore } from '../../stores/tasks';
import { answerWidget } from './agentActions';
import './agents.css';

/**
 * The live part of a question card while its task waits for the answer:
 * one-click choices, checkboxes with Submit, or a form. Go checks the answer;
 * a refused one keeps what was entered and shows why, here.
 */
export function LiveQuestion({ taskId, question }: { taskId: string; question: string }) {
  const task = useTasksStore((s) => s.byId[taskId]);
  if (!task || task.status !== 'waiting_user' || task.pendingQuestion !== question) return null;
  if (task.pendingFields?.length) return <FormWidget task={task} fields={task.pendingFields} />;
  if (task.pendingChoices?.length) {
    return task.pendingMultiple ? <MultiChoice task={task} /> : <OneChoice task={task} />;
  }
  return null;
}

function useAnswer(task: Task) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (answer: string) => {
    if (pending) return;
    setPending(true);
    setError(null);
    const err = await answerWidget(task.conversationId, task.id, answer);
    setPending(false);
    setError(err);
  };
  return { pending, error, send };
}

/**
 * Puts the cursor in the widget's first control when nothing has the focus
 * (the composer was disabled under the person), so that it is usable from
 * the keyboard at once.
 */
function useFocusWhenIdle<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) {
      ref.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus({ preventScroll: true });
    }
  }, []);
  return ref;
}

function WidgetError({ id, error }: { id: string; error: string | null }) {
  return (
    <p id={id} className="widget-error" role="alert">
      {error ?? ''}
    </p>
  );
}

function OtherField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <input
      type="text"
      className="widget-input widget-other"
      aria-label="Other"
      placeholder="Other…"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** Choices answered with one click, and an "Other" answer when allowed. */
function OneChoice({ task }: { task: Task }) {
  const { pending, error, send } = useAnswer(task);
  const [other, setOther] = useState('');
  const errorId = useId();
  // No focus taken: the composer, open beside one-click choices, has it.
  return (
    <div className="widget choices" role="group" aria-label="Suggested answers" aria-describedby={errorId}>
      {(task.pendingChoices ?? []).map((c, i) => (
        <button key={`${i}:${c}`} type="button" className="chip" disabled={pending} onClick={() => void send(c)}>
          {c}
        </button>
      ))}
      {task.pendingAllowOther && (
        <form
          className="widget-other-row"
          onSubmit={(e) => {
            e.preventDefault();
            if (other.trim()) void send(other.trim());
          }}
        >
          <OtherField value={other} onChange={setOther} />
          <button type="submit" className="btn btn-small" disabled={pending || !other.trim()}>
            Answer
          </button>
        </form>
      )}
      <WidgetError id={errorId} error={error} />
    </div>
  );
}

/** Several choices: checkboxes (and "Other"), answered with Submit as a JSON array. */
function MultiChoice({ task }: { task: Task }) {
  const { pending, error, send } = useAnswer(task);
  const [picked, setPicked] = useState<string[]>([]);
  const [other, setOther] = useState('');
  const errorId = useId();
  const choices = task.pendingChoices ?? [];
  const ref = useFocusWhenIdle<HTMLFormElement>();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const answer = choices.filter((c) => picked.includes(c));
    if (other.trim()) answer.push(other.trim());
    void send(JSON.stringify(answer));
  };
  return (
    <form ref={ref} className="widget" role="group" aria-label={task.pendingQuestion} aria-describedby={errorId} onSubmit={onSubmit}>
      <div className="widget-checks">
        {choices.map((c, i) => (
          <label key={`${i}:${c}`} className="widget-check">
            <input
              type="checkbox"
              checked={picked.includes(c)}
              onChange={(e) => setPicked((p) => (e.target.checked ? [...p, c] : p.filter((x) => x !== c)))}
            />
            <span>{c}</span>
          </label>
        ))}
      </div>
      {task.pendingAllowOther && <OtherField value={other} onChange={setOther} />}
      <WidgetError id={errorId} error={error} />
      <button type="submit" className="btn btn-primary btn-small" disabled={pending}>
        Submit
      </button>
    </form>
  );
}

type Values = Record<string, string | boolean>;

/** The answer object: empty fields left out, numbers as numbers. */
export function formAnswer(fields: readonly FormField[], values: Values): string {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.type === 'boolean') {
      out[f.name] = v === true;
      continue;
    }
    if (typeof v !== 'string' || v.trim() === '') continue;
    const n = Number(v);
    out[f.name] = (f.type === 'number' || f.type === 'rating') && v.trim() !== '' && Number.isFinite(n) ? n : v;
  }
  return JSON.stringify(out);
}

/** A form: a group named by its question, each field by its label, and Submit. */
function FormWidget({ task, fields }: { task: Task; fields: FormField[] }) {
  const { pending, error, send } = useAnswer(task);
  const [values, setValues] = useState<Values>({});
  const errorId = useId();
  const base = useId();
  const set = (name: string, v: string | boolean) => setValues((s) => ({ ...s, [name]: v }));
  const ref = useFocusWhenIdle<HTMLFormElement>();
  return (
    <form
      ref={ref}
      className="widget widget-form"
      role="group"
      aria-label={task.pendingQuestion}
      aria-describedby={errorId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send(formAnswer(fields, values));
      }}
    >
      {fields.map((f) => (
        <Field key={f.name} id={`${base}-${f.name}`} field={f} value={values[f.name]} onChange={(v) => set(f.name, v)} />
      ))}
      <WidgetError id={errorId} error={error} />
      <button type="submit" className="btn btn-primary btn-small" disabled={pending}>
        Submit
      </button>
    </form>
  );
}

const INPUT_TYPES: Partial<Record<FormField['type'], string>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  email: 'email',
  url: 'url',
};

function Field({
  id,
  field: f,
  value,
  onChange,
}: {
  id: string;
  field: FormField;
  value: string | boolean | undefined;
  onChange: (v: string | boolean) => void;
}) {
  const label = (
    <>
      {f.label}
      {f.required && (
        <span className="widget-required" aria-hidden="true">
          {' '}*
        </span>
      )}
    </>
  );
  const text = typeof value === 'string' ? value : '';
  switch (f.type) {
    case 'boolean':
      return (
        <label className="widget-check widget-field">
          <input type="checkbox" aria-required={f.required || undefined} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <span>{label}</span>
        </label>
      );
    case 'rating': {
      const lo = f.min ?? 1;
      const hi = f.max ?? 5;
      const steps = Array.from({ length: Math.max(0, Math.min(10, hi - lo + 1)) }, (_, i) => lo + i);
      return (
        <fieldset className="widget-field widget-rating">
          <legend>{label}</legend>
          {steps.map((n) => (
            <label key={n} className="widget-star">
              <input type="radio" name={id} value={String(n)} checked={text === String(n)} onChange={() => onChange(String(n))} />
              <span>{n}</span>
            </label>
          ))}
        </fieldset>
      );
    }
    case 'select':
      return (
        <div className="widget-field">
          <label htmlFor={id}>{label}</label>
          <select id={id} className="widget-input" aria-required={f.required || undefined} value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">Choose…</option>
            {(f.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
      );
    case 'textarea':
      return (
        <div className="widget-field">
          <label htmlFor={id}>{label}</label>
          <textarea
            id={id}
            className="widget-input"
            rows={3}
            aria-required={f.required || undefined}
            placeholder={f.placeholder}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      );
    default:
      return (
        <div className="widget-field">
          <label htmlFor={id}>{label}</label>
          <input
            id={id}
            className="widget-input"
            type={INPUT_TYPES[f.type] ?? 'text'}
            aria-required={f.required || undefined}
            placeholder={f.placeholder}
            min={f.type === 'number' ? f.min : undefined}
            max={f.type === 'number' ? f.max : undefined}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      );
  }
}

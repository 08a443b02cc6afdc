import { useId, useRef, useState, type FormEvent } from 'react';
import { toApiError } from '../../api/errors';

type Field = 'name' | 'text';

/**
 * A saved prompt's name and text, with Save and Cancel. Go checks them: a
 * refusal (an empty or taken name, an empty text) is said under the form
 * and marks the field at fault, which takes the focus; nothing is saved.
 */
export function PromptForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: { name: string; text: string };
  submitLabel: string;
  onSave: (name: string, text: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [text, setText] = useState(initial.text);
  const [error, setError] = useState<{ message: string; field?: Field } | null>(null);
  const [saving, setSaving] = useState(false);
  const refs = { name: useRef<HTMLInputElement>(null), text: useRef<HTMLTextAreaElement>(null) };
  const base = useId();
  const errorId = `${base}-error`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      await onSave(name, text);
    } catch (err) {
      const e = toApiError(err);
      const field = e.field === 'name' || e.field === 'text' ? e.field : undefined;
      setError({ message: e.message, field });
      if (field) refs[field].current?.focus();
    } finally {
      setSaving(false);
    }
  };
  const bad = (f: Field) => (error?.field === f ? { 'aria-invalid': true, 'aria-describedby': errorId } : {});

  return (
    <form className="prompt-form" noValidate onSubmit={(e) => void submit(e)}>
      <label htmlFor={`${base}-name`}>Name</label>
      <input
        ref={refs.name}
        id={`${base}-name`}
        className="errand-input"
        value={name}
        autoFocus
        placeholder="e.g. Weekly report"
        onChange={(e) => setName(e.target.value)}
        {...bad('name')}
      />
      <label htmlFor={`${base}-text`}>Text</label>
      <textarea
        ref={refs.text}
        id={`${base}-text`}
        className="errand-input"
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        {...bad('text')}
      />
      {error && (
        <p id={errorId} className="prompt-error" role="alert">
          {error.message}
        </p>
      )}
      <div className="prompt-form-actions">
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary btn-small" aria-disabled={saving || undefined}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

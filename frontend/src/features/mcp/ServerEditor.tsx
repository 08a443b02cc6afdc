import { useId, useState, type FormEvent } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import { inputOf, type ServerForm } from './serverForm';

/** The form that adds or edits one server. */
export function ServerEditor({
  initial,
  onDone,
  onCancel,
}: {
  initial: ServerForm;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [form, setForm] = useState(initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const set = (patch: Partial<ServerForm>) => setForm((f) => ({ ...f, ...patch }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const r = inputOf(form);
    if ('error' in r) {
      setError(r.error);
      return;
    }
    setBusy(true);
    setError('');
    try {
      await api.saveMCPServer(r.input);
      onDone();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  const stdio = form.transport === 'stdio';
  return (
    <form
      className="mcp-editor"
      aria-label={initial.id ? `Edit ${initial.name}` : 'New MCP server'}
      onSubmit={(e) => void submit(e)}
    >
      <div className="mcp-editor-row">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          className="errand-input"
          value={form.name}
          placeholder="e.g. everything"
          spellCheck={false}
          onChange={(e) => set({ name: e.target.value })}
        />
        <label htmlFor={`${id}-transport`}>Transport</label>
        <select
          id={`${id}-transport`}
          className="errand-input"
          value={form.transport}
          onChange={(e) => set({ transport: e.target.value as ServerForm['transport'] })}
        >
          <option value="stdio">Command (stdio)</option>
          <option value="http">Streamable HTTP</option>
        </select>
      </div>
      {stdio ? (
        <>
          <label htmlFor={`${id}-command`}>Command</label>
          <input
            id={`${id}-command`}
            className="errand-input"
            value={form.command}
            placeholder="e.g. npx"
            spellCheck={false}
            onChange={(e) => set({ command: e.target.value })}
          />
          <label htmlFor={`${id}-args`}>Arguments (one a line)</label>
          <textarea
            id={`${id}-args`}
            className="errand-input"
            rows={3}
            value={form.args}
            spellCheck={false}
            onChange={(e) => set({ args: e.target.value })}
          />
          <label htmlFor={`${id}-env`}>Environment (KEY=value, one a line)</label>
          <textarea
            id={`${id}-env`}
            className="errand-input"
            rows={2}
            value={form.env}
            spellCheck={false}
            onChange={(e) => set({ env: e.target.value })}
          />
        </>
      ) : (
        <>
          <label htmlFor={`${id}-url`}>Address</label>
          <input
            id={`${id}-url`}
            className="errand-input"
            value={form.url}
            placeholder="https://example.com/mcp"
            spellCheck={false}
            onChange={(e) => set({ url: e.target.value })}
          />
        </>
      )}
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
      <div className="mcp-actions">
        <button type="submit" className="btn btn-primary btn-small" aria-disabled={busy || undefined}>
          Save server
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

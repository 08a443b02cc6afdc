import { useEffect, useId, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';

/** Import Claude Desktop's mcpServers: pasted, or read from its usual file. */
export function ClaudeImport({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const [text, setText] = useState('');
  const [path, setPath] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  useEffect(() => {
    api.claudeConfigPath().then(setPath, () => {});
  }, []);
  const run = async (source: string) => {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      await api.importClaudeConfig(source);
      onDone();
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mcp-editor" role="group" aria-label="Import from Claude Desktop">
      <label htmlFor={`${id}-json`}>Claude Desktop configuration (JSON)</label>
      <textarea
        id={`${id}-json`}
        className="errand-input mcp-json"
        rows={6}
        value={text}
        spellCheck={false}
        placeholder={'{"mcpServers": {"name": {"command": "npx", "args": ["…"]}}}'}
        onChange={(e) => setText(e.target.value)}
      />
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
      <div className="mcp-actions">
        <button
          type="button"
          className="btn btn-primary btn-small"
          aria-disabled={busy || text.trim() === '' || undefined}
          onClick={() => text.trim() !== '' && void run(text)}
        >
          Import pasted
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-disabled={busy || undefined}
          title={path}
          onClick={() => void run('')}
        >
          Read from Claude Desktop’s file
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {path && <p className="settings-help">Its usual place here: {path}</p>}
    </div>
  );
}

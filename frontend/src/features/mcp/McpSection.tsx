import { useEffect, useId, useState } from 'react';
import * as api from '../../api';
import type { MCPServerState, Risk } from '../../api';
import { toApiError } from '../../api/errors';
import { RISKS } from '../../api/types';
import { useMcpServersStore } from '../../stores/mcpServers';
import { loadMcpServers, watchMcpServers } from '../../stores/sync';
import { ClaudeImport } from './ClaudeImport';
import { ServerEditor } from './ServerEditor';
import { emptyForm, formOf, RISK_LABELS, statusText, type ServerForm } from './serverForm';
import './mcp.css';

/**
 * Settings → MCP servers: the servers with their status and tools, add,
 * edit, remove, enable and disable, a tool's risk, the call timeout, and
 * the import of Claude Desktop's configuration.
 */
export function McpSection({
  timeoutSec,
  onTimeout,
}: {
  timeoutSec: number;
  onTimeout: (sec: number) => Promise<void>;
}) {
  const headId = useId();
  const servers = useMcpServersStore((s) => s.servers);
  const listError = useMcpServersStore((s) => s.error);
  const [actError, setActError] = useState('');
  const [editing, setEditing] = useState<ServerForm | null>(null);
  const [importing, setImporting] = useState(false);
  const load = () => void loadMcpServers();

  useEffect(() => watchMcpServers(), []);

  const act = async (what: () => Promise<unknown>) => {
    setActError('');
    try {
      await what();
    } catch (err) {
      setActError(toApiError(err).message);
    }
    load();
  };
  const error = actError || listError;

  return (
    <section className="settings-group mcp-section" aria-labelledby={headId}>
      <h3 id={headId} className="mcp-title">
        MCP servers
      </h3>
      <p className="settings-help">
        Tools from MCP servers, offered to the agent as server__tool. A tool that writes or is destructive asks first,
        as Errand’s own tools do; set a tool’s risk if its server says too little.
      </p>
      <div className="mcp-actions">
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => {
            setImporting(false);
            setEditing({ ...emptyForm });
          }}
        >
          Add server
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => {
            setEditing(null);
            setImporting(true);
          }}
        >
          Import from Claude Desktop
        </button>
      </div>
      {editing && (
        <ServerEditor
          initial={editing}
          onCancel={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            load();
          }}
        />
      )}
      {importing && (
        <ClaudeImport
          onCancel={() => setImporting(false)}
          onDone={() => {
            setImporting(false);
            load();
          }}
        />
      )}
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
      {servers && servers.length === 0 && <p className="mcp-empty">No MCP servers yet.</p>}
      {servers && servers.length > 0 && (
        <ul className="mcp-list" aria-label="Configured MCP servers">
          {servers.map((s) => (
            <ServerRow
              key={s.server.id}
              state={s}
              onEdit={() => {
                setImporting(false);
                setEditing(formOf(s));
              }}
              act={act}
            />
          ))}
        </ul>
      )}
      <TimeoutField value={timeoutSec} onSave={onTimeout} />
    </section>
  );
}

function ServerRow({
  state,
  onEdit,
  act,
}: {
  state: MCPServerState;
  onEdit: () => void;
  act: (what: () => Promise<unknown>) => Promise<void>;
}) {
  const srv = state.server;
  const [confirming, setConfirming] = useState(false);
  const what = srv.transport === 'http' ? srv.url : [srv.command, ...(srv.args ?? [])].join(' ');
  const refused = state.tools.filter((t) => t.refused).length;
  return (
    <li className="mcp-server" aria-label={srv.name}>
      <div className="mcp-server-head">
        <span className="mcp-server-name">{srv.name}</span>
        <span className={`mcp-status mcp-status-${state.status}`}>{statusText(state)}</span>
        {refused > 0 && (
          <span className="mcp-refused">{refused} not offered (see Tools)</span>
        )}
      </div>
      <code className="mcp-command">{what}</code>
      <div className="mcp-actions">
        <button
          type="button"
          role="switch"
          aria-checked={srv.enabled}
          aria-label={`Enable ${srv.name}`}
          className="btn btn-ghost btn-small"
          onClick={() => void act(() => api.setMCPServerEnabled(srv.id, !srv.enabled))}
        >
          {srv.enabled ? 'Enabled' : 'Disabled'}
        </button>
        {state.status === 'failed' && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => void act(() => api.restartMCPServer(srv.id))}>
            Restart
          </button>
        )}
        <button type="button" className="btn btn-ghost btn-small" aria-label={`Edit ${srv.name}`} onClick={onEdit}>
          Edit
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              className="btn btn-danger btn-small"
              onClick={() => void act(() => api.removeMCPServer(srv.id))}
            >
              Remove {srv.name}
            </button>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label={`Remove ${srv.name}`}
            onClick={() => setConfirming(true)}
          >
            Remove
          </button>
        )}
      </div>
      {state.tools.length > 0 && (
        <details className="mcp-tools">
          <summary>Tools ({state.tools.length})</summary>
          <table>
            <tbody>
              {state.tools.map((t) => (
                <tr key={t.name}>
                  <td>
                    <code>{t.fullName}</code>
                    {t.refused && <div className="mcp-refused">{t.refused}</div>}
                  </td>
                  <td>
                    <select
                      className="errand-input"
                      aria-label={`Risk of ${t.fullName}`}
                      value={srv.toolRisks?.[t.name] ?? ''}
                      onChange={(e) => void act(() => api.setMCPToolRisk(srv.id, t.name, e.target.value as Risk | ''))}
                    >
                      <option value="">As declared ({RISK_LABELS[t.hintRisk]})</option>
                      {RISKS.map((r) => (
                        <option key={r} value={r}>
                          {RISK_LABELS[r]}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </li>
  );
}

function TimeoutField({ value, onSave }: { value: number; onSave: (sec: number) => Promise<void> }) {
  const id = useId();
  const [text, setText] = useState(String(value));
  const [error, setError] = useState('');
  useEffect(() => setText(String(value)), [value]);
  const save = async () => {
    const n = Number(text.trim());
    if (!Number.isInteger(n) || n < 1 || n > 3600) {
      setError('The MCP call timeout must be a whole number of seconds from 1 to 3600.');
      return;
    }
    if (n === value) return;
    setError('');
    try {
      await onSave(n);
    } catch (err) {
      setError(toApiError(err).message);
    }
  };
  return (
    <div className="mcp-timeout">
      <label htmlFor={id}>MCP call timeout</label>
      <input
        id={id}
        className="errand-input settings-number"
        type="number"
        min="1"
        max="3600"
        step="1"
        value={text}
        aria-invalid={error !== '' || undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => void save()}
      />
      <span className="settings-unit">seconds</span>
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

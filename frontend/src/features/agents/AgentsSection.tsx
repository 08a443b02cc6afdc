import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAgentStats, usageText } from './AgentUsage';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { AgentDefinition } from '../../api/types';
import { loadAgents, useAgentsStore } from '../../stores/agents';
import { askConfirm } from '../../stores/confirm';
import { reportInfo } from '../../stores/notices';
import './agents.css';

/** A slug made from a name: lower-case letters, digits and dashes. */
export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return s || 'agent';
}

export function blankAgent(): AgentDefinition {
  return {
    id: '',
    name: '',
    description: '',
    color: '#3b6fd8',
    instructions: '',
    allTools: false,
    tools: [],
    model: '',
    limits: { maxSteps: 0, maxMinutes: 0, maxCostUsd: 0 },
    mode: 'reactive',
    canUserType: true,
    allowEarlyTermination: false,
    showHistory: true,
    showEndButton: true,
    typeDuringOpening: false,
    opening: '',
    builtIn: false,
    createdAt: '',
    updatedAt: '',
  };
}

/**
 * Settings → Agents: the built-in agents (to duplicate) and the person's
 * own, created, edited, deleted, exported and imported here. Go checks every
 * definition; a refused one keeps the form as it was and says why.
 */
export function AgentsSection() {
  const agents = useAgentsStore((s) => s.list);
  const stats = useAgentStats();
  const [editing, setEditing] = useState<{ agent: AgentDefinition; isNew: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headId = useId();

  useEffect(() => {
    void loadAgents();
  }, []);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      await loadAgents();
      return true;
    } catch (err) {
      setError(toApiError(err).message);
      return false;
    }
  };

  return (
    <section className="settings-group agents-section" aria-labelledby={headId}>
      <h3 id={headId} className="agents-title">
        Agents
      </h3>
      <p className="settings-help">
        Each conversation talks to one agent: its instructions, its tools, its model and limits. Built-in agents can be
        duplicated; your own can be edited, deleted, exported to a file and imported from one.
      </p>
      <ul className="agents-list">
        {agents.map((a) => (
          <li key={a.id} className="agents-item">
            <span className="agent-dot" style={{ background: a.color || undefined }} aria-hidden="true" />
            <span className="agents-item-text">
              <strong>{a.name}</strong>
              {a.builtIn && <span className="agents-badge">built-in</span>}
              {a.mode === 'proactive' && <span className="agents-badge">speaks first</span>}
              <span className="muted agents-desc">{a.description}</span>
              <span className="muted agents-usage">{usageText(stats[a.id])}</span>
            </span>
            <span className="agents-item-actions">
              {!a.builtIn && (
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  aria-label={`Edit ${a.name}`}
                  onClick={() => {
                    setError(null);
                    setEditing({ agent: a, isNew: false });
                  }}
                >
                  Edit
                </button>
              )}
              <button
                type="button"
                className="btn btn-ghost btn-small"
                aria-label={`Duplicate ${a.name}`}
                onClick={() =>
                  void act(async () => {
                    const copy = await api.duplicateAgent(a.id);
                    setEditing({ agent: copy, isNew: false });
                  })
                }
              >
                Duplicate
              </button>
            </span>
          </li>
        ))}
      </ul>
      <div className="agents-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={() => {
            setError(null);
            setEditing({ agent: blankAgent(), isNew: true });
          }}
        >
          New agent
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() =>
            void act(async () => {
              const d = await api.importAgentFile();
              if (d.id) reportInfo(`Imported the agent ${d.name}.`);
            })
          }
        >
          Import agent
        </button>
      </div>
      {error && !editing && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
      {editing && (
        <AgentEditor
          key={editing.agent.id || 'new'}
          initial={editing.agent}
          isNew={editing.isNew}
          error={error}
          onSave={(d) => act(() => (editing.isNew ? api.createAgent(d) : api.updateAgent(d))).then((ok) => ok && setEditing(null))}
          onDelete={async () => {
            if (!(await confirmDelete(editing.agent))) return;
            if (await act(() => api.deleteAgent(editing.agent.id))) setEditing(null);
          }}
          onExport={() =>
            void act(async () => {
              const path = await api.exportAgentFile(editing.agent.id);
              if (path) reportInfo(`Exported to ${path}.`);
            })
          }
          onCancel={() => {
            setError(null);
            setEditing(null);
          }}
        />
      )}
    </section>
  );
}

/** Deleting an agent asks first: its conversations go back to Errand. */
function confirmDelete(a: AgentDefinition): Promise<boolean> {
  return askConfirm({
    title: `Delete the agent ${a.name}?`,
    text: 'Its conversations go on with Errand, each with a notice. This cannot be undone; export it first to keep a copy.',
    confirmLabel: 'Delete agent',
    cancelLabel: 'Keep it',
  });
}

function num(v: string): number {
  const n = Number(v);
  return v.trim() === '' ? 0 : n;
}

function AgentEditor({
  initial,
  isNew,
  error,
  onSave,
  onDelete,
  onExport,
  onCancel,
}: {
  initial: AgentDefinition;
  isNew: boolean;
  error: string | null;
  onSave: (d: AgentDefinition) => Promise<unknown>;
  onDelete: () => Promise<unknown>;
  onExport: () => void;
  onCancel: () => void;
}) {
  const [d, setD] = useState(initial);
  const [tools, setTools] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const base = useId();
  const id = (s: string) => `${base}-${s}`;
  const errorId = id('error');

  useEffect(() => {
    let live = true;
    api.agentToolNames().then(
      (t) => live && setTools(t),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);

  const set = <K extends keyof AgentDefinition>(k: K, v: AgentDefinition[K]) => setD((x) => ({ ...x, [k]: v }));
  const toggleTool = (t: string, on: boolean) =>
    set('tools', on ? [...d.tools.filter((x) => x !== t), t] : d.tools.filter((x) => x !== t));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      await onSave({ ...d, id: isNew ? d.id.trim() || slugify(d.name) : d.id });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="agent-editor" aria-label={isNew ? 'New agent' : `Agent ${initial.name}`} noValidate onSubmit={(e) => void submit(e)}>
      <div className="agent-editor-grid">
        <label htmlFor={id('name')}>Name</label>
        <input id={id('name')} className="settings-input" value={d.name} onChange={(e) => set('name', e.target.value)} />
        {isNew && (
          <>
            <label htmlFor={id('id')}>Id</label>
            <input
              id={id('id')}
              className="settings-input"
              value={d.id}
              placeholder={slugify(d.name || 'my agent')}
              onChange={(e) => set('id', e.target.value)}
            />
          </>
        )}
        <label htmlFor={id('desc')}>Description</label>
        <input id={id('desc')} className="settings-input" value={d.description} onChange={(e) => set('description', e.target.value)} />
        <label htmlFor={id('color')}>Colour</label>
        <input id={id('color')} type="color" className="agent-color" value={d.color || '#3b6fd8'} onChange={(e) => set('color', e.target.value)} />
        <label htmlFor={id('model')}>Model</label>
        <input
          id={id('model')}
          className="settings-input"
          value={d.model}
          placeholder="The default model"
          onChange={(e) => set('model', e.target.value)}
        />
        <label htmlFor={id('mode')}>Chat mode</label>
        <select id={id('mode')} className="settings-input" value={d.mode} onChange={(e) => setD((x) => ({ ...x, mode: e.target.value as AgentDefinition['mode'], typeDuringOpening: false }))}>
          <option value="reactive">Reactive: you start</option>
          <option value="proactive">Proactive: the agent speaks first</option>
        </select>
      </div>
      <label htmlFor={id('instructions')} className="agent-editor-label">
        Instructions
      </label>
      <textarea
        id={id('instructions')}
        className="settings-input agent-instructions"
        rows={5}
        value={d.instructions}
        onChange={(e) => set('instructions', e.target.value)}
      />
      <p className="settings-help">Errand's agentic-mode rules (how to ask, report and finish) are always added after them.</p>
      {d.mode === 'proactive' && (
        <>
          <label htmlFor={id('opening')} className="agent-editor-label">
            What it does first
          </label>
          <textarea id={id('opening')} className="settings-input" rows={2} value={d.opening} onChange={(e) => set('opening', e.target.value)} />
        </>
      )}
      <fieldset className="agent-tools">
        <legend>Tools</legend>
        <label className="widget-check">
          <input type="checkbox" checked={d.allTools} onChange={(e) => set('allTools', e.target.checked)} />
          <span>Every built-in tool</span>
        </label>
        {!d.allTools &&
          tools.map((t) => (
            <label key={t} className="widget-check">
              <input type="checkbox" checked={d.tools.includes(t)} onChange={(e) => toggleTool(t, e.target.checked)} />
              <span>{t}</span>
            </label>
          ))}
      </fieldset>
      <fieldset className="agent-limits">
        <legend>Limits (empty: the settings' limits)</legend>
        <label>
          Steps{' '}
          <input
            type="number"
            min="0"
            className="settings-input"
            value={d.limits.maxSteps || ''}
            onChange={(e) => set('limits', { ...d.limits, maxSteps: num(e.target.value) })}
          />
        </label>
        <label>
          Minutes{' '}
          <input
            type="number"
            min="0"
            className="settings-input"
            value={d.limits.maxMinutes || ''}
            onChange={(e) => set('limits', { ...d.limits, maxMinutes: num(e.target.value) })}
          />
        </label>
        <label>
          Spend (US$){' '}
          <input
            type="number"
            min="0"
            step="any"
            className="settings-input"
            value={d.limits.maxCostUsd || ''}
            onChange={(e) => set('limits', { ...d.limits, maxCostUsd: num(e.target.value) })}
          />
        </label>
      </fieldset>
      <label className="widget-check">
        <input type="checkbox" checked={d.canUserType} onChange={(e) => set('canUserType', e.target.checked)} />
        <span>You can type while it waits</span>
      </label>
      <label className="widget-check">
        <input type="checkbox" checked={d.allowEarlyTermination} onChange={(e) => set('allowEarlyTermination', e.target.checked)} />
        <span>Show “End conversation”</span>
      </label>
      <label className="widget-check">
        <input type="checkbox" checked={d.showEndButton} onChange={(e) => set('showEndButton', e.target.checked)} />
        <span>Show the Stop (End conversation) button</span>
      </label>
      <label className="widget-check">
        <input type="checkbox" checked={d.showHistory} onChange={(e) => set('showHistory', e.target.checked)} />
        <span>Show the conversation before the current question</span>
      </label>
      {d.mode === 'proactive' && (
        <label className="widget-check">
          <input type="checkbox" checked={d.typeDuringOpening} onChange={(e) => set('typeDuringOpening', e.target.checked)} />
          <span>You can type before it has spoken</span>
        </label>
      )}
      {error && (
        <p id={errorId} className="settings-error" role="alert">
          {error}
        </p>
      )}
      <div className="agents-actions">
        <button type="submit" className="btn btn-primary btn-small" aria-disabled={saving || undefined}>
          Save agent
        </button>
        {!isNew && (
          <>
            <button type="button" className="btn btn-ghost btn-small" onClick={onExport}>
              Export agent
            </button>
            <button type="button" className="btn btn-ghost btn-small btn-danger" onClick={() => void onDelete()}>
              Delete agent
            </button>
          </>
        )}
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { Fact, FactScope } from '../../api/types';
import { CopyDetailsButton } from '../../components/CopyDetailsButton';
import { reportOf, type ErrorReport } from '../../lib/errorDetails';
import { ALL_FACTS, useFacts } from '../../stores/facts';
import { loadFacts, watchFacts } from '../../stores/sync';
import './memory.css';

/** An error as the view shows it: the message, the field Go says it is about, and what "Copy details" copies. */
function failure(err: unknown, fallback: string): ErrorReport & { field?: string } {
  const e = toApiError(err);
  const message = e.message.trim() && !e.message.includes('[object Object]') ? e.message : fallback;
  return { ...reportOf(e, new Date().toISOString()), message, field: e.field };
}

function ErrorLine({ error, id }: { error: ErrorReport; id?: string }) {
  return (
    <div className="memory-error">
      <p id={id} role="alert">
        {error.message}
      </p>
      <CopyDetailsButton report={error} />
    </div>
  );
}

/** The add and edit form, inline: key, value and (in a conversation) whose the fact is. */
function FactForm({
  initial,
  conversationId,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: { key: string; value: string; scope: FactScope };
  conversationId: string | null;
  submitLabel: string;
  onSave: (input: api.FactInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [key, setKey] = useState(initial.key);
  const [value, setValue] = useState(initial.value);
  const [scope, setScope] = useState<FactScope>(conversationId ? initial.scope : 'global');
  const [error, setError] = useState<ReturnType<typeof failure> | null>(null);
  const [saving, setSaving] = useState(false);
  const base = useId();
  const errorId = `${base}-error`;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      await onSave({ key, value, scope, conversationId: scope === 'conversation' && conversationId ? conversationId : '' });
    } catch (err) {
      setError(failure(err, 'Errand could not save the fact.'));
    } finally {
      setSaving(false);
    }
  };
  const bad = (what: 'key' | 'value') => error?.field === what || undefined;

  return (
    <form
      className="memory-form"
      data-own-escape
      noValidate
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <label htmlFor={`${base}-key`}>Key</label>
      <input
        id={`${base}-key`}
        className="errand-input"
        type="text"
        value={key}
        autoFocus
        spellCheck={false}
        placeholder="e.g. preferred language"
        aria-invalid={bad('key')}
        aria-describedby={bad('key') ? errorId : undefined}
        onChange={(e) => setKey(e.target.value)}
      />
      <label htmlFor={`${base}-value`}>Value</label>
      <textarea
        id={`${base}-value`}
        className="errand-input"
        rows={2}
        value={value}
        placeholder="e.g. British English"
        aria-invalid={bad('value')}
        aria-describedby={bad('value') ? errorId : undefined}
        onChange={(e) => setValue(e.target.value)}
      />
      {conversationId && (
        <>
          <label htmlFor={`${base}-scope`}>Remember for</label>
          <select
            id={`${base}-scope`}
            className="errand-input"
            value={scope}
            onChange={(e) => setScope(e.target.value as FactScope)}
          >
            <option value="conversation">This conversation</option>
            <option value="global">All conversations</option>
          </select>
        </>
      )}
      {error && <ErrorLine error={error} id={errorId} />}
      <div className="memory-form-actions">
        <button type="submit" className="btn btn-primary btn-small" aria-disabled={saving || undefined}>
          {submitLabel}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function FactRow({
  fact,
  conversationId,
  editing,
  onEdit,
  onDone,
}: {
  fact: Fact;
  conversationId: string | null;
  editing: boolean;
  onEdit: (on: boolean) => void;
  onDone: () => void;
}) {
  const keyId = useId();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ErrorReport | null>(null);

  if (editing) {
    return (
      <li className="memory-fact is-editing">
        <FactForm
          initial={fact}
          conversationId={conversationId}
          submitLabel="Save fact"
          onCancel={() => onEdit(false)}
          onSave={async (input) => {
            await api.updateFact(fact.id, input);
            onEdit(false);
            onDone();
          }}
        />
      </li>
    );
  }
  const remove = async () => {
    setError(null);
    try {
      await api.deleteFact(fact.id);
      setConfirming(false);
      onDone();
    } catch (err) {
      setError(failure(err, 'Errand could not delete the fact.'));
    }
  };
  return (
    <li className="memory-fact">
      <div className="memory-fact-text">
        <span id={keyId} className="memory-key">
          {fact.key}
        </span>
        <span className="memory-value">{fact.value}</span>
      </div>
      {confirming ? (
        <div className="memory-confirm" role="group" aria-label={`Delete ${fact.key}?`}>
          <span>Delete this fact?</span>
          <button type="button" className="btn btn-danger btn-small" autoFocus onClick={() => void remove()}>
            Yes, delete
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="memory-fact-actions">
          <button type="button" className="btn btn-ghost btn-small" aria-describedby={keyId} onClick={() => onEdit(true)}>
            Edit fact
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-describedby={keyId}
            onClick={() => setConfirming(true)}
          >
            Delete fact
          </button>
        </div>
      )}
      {error && <ErrorLine error={error} />}
    </li>
  );
}

function FactList({
  title,
  facts,
  conversationId,
  editingId,
  setEditingId,
  reload,
}: {
  title: string;
  facts: Fact[];
  conversationId: string | null;
  editingId: string | null;
  setEditingId: (id: string | null) => void;
  reload: () => void;
}) {
  const headId = useId();
  return (
    <div className="memory-group">
      <h4 id={headId} className="memory-group-title">
        {title}
      </h4>
      {facts.length === 0 ? (
        <p className="memory-empty">Nothing remembered yet.</p>
      ) : (
        <ul className="memory-list" aria-labelledby={headId}>
          {facts.map((f) => (
            <FactRow
              key={f.id}
              fact={f}
              conversationId={conversationId}
              editing={editingId === f.id}
              onEdit={(on) => setEditingId(on ? f.id : null)}
              onDone={reload}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The facts the agent was asked to remember: the global ones and, given a
 * conversation, that conversation's, each with Edit fact and Delete fact,
 * and Add fact. It reloads when facts change (agent:factsChanged).
 */
export function MemoryView({ conversationId }: { conversationId: string | null }) {
  const { list: facts, error } = useFacts(conversationId);
  const loadError = useMemo(() => (error ? failure(error, 'Errand could not read the facts.') : null), [error]);
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);

  useEffect(() => watchFacts(conversationId), [conversationId]);

  const reload = () => void loadFacts(conversationId);
  if (!facts) return <NotYet error={loadError} reload={reload} />;
  const own = facts.filter((f) => f.scope === 'conversation');
  const global = facts.filter((f) => f.scope === 'global');
  const lists = { editingId, setEditingId, reload, conversationId };
  return (
    <div className="memory-view">
      {loadError && <ErrorLine error={loadError} />}
      {conversationId && <FactList title="This conversation" facts={own} {...lists} />}
      <FactList title="All conversations" facts={global} {...lists} />
      <AddFact conversationId={conversationId} adding={adding} setAdding={setAdding} reload={reload} />
    </div>
  );
}

/** The facts before their first read: Loading…, or why the read failed with Try again. */
function NotYet({ error, reload }: { error: ErrorReport | null; reload: () => void }) {
  return error ? (
    <div className="memory-view">
      <ErrorLine error={error} />
      <button type="button" className="btn btn-ghost btn-small" onClick={reload}>
        Try again
      </button>
    </div>
  ) : (
    <p className="muted">Loading…</p>
  );
}

function AddFact({
  conversationId,
  adding,
  setAdding,
  reload,
}: {
  conversationId: string | null;
  adding: boolean;
  setAdding: (on: boolean) => void;
  reload: () => void;
}) {
  return adding ? (
    <FactForm
      initial={{ key: '', value: '', scope: 'conversation' }}
      conversationId={conversationId}
      submitLabel="Save fact"
      onCancel={() => setAdding(false)}
      onSave={async (input) => {
        await api.addFact(input);
        setAdding(false);
        reload();
      }}
    />
  ) : (
    <button type="button" className="btn btn-ghost btn-small memory-add" onClick={() => setAdding(true)}>
      Add fact
    </button>
  );
}

/** Whether a fact (or its conversation's title) holds what the filter says, whatever its case. */
function matches(f: Fact, title: string, q: string): boolean {
  return q === '' || [f.key, f.value, title].some((t) => t.toLowerCase().includes(q));
}

/**
 * Settings → Memory's facts: the global ones and every conversation's, by
 * conversation (the most recently active first), with a filter on the key,
 * the value and the conversation's title; Add fact adds a global one.
 */
export function AllFactsView() {
  const { list: facts, error, titles } = useFacts(ALL_FACTS);
  const loadError = useMemo(() => (error ? failure(error, 'Errand could not read the facts.') : null), [error]);
  const [filter, setFilter] = useState('');
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string | null>(null);
  const filterId = useId();

  useEffect(() => watchFacts(ALL_FACTS), []);

  const reload = () => void loadFacts(ALL_FACTS);
  if (!facts) return <NotYet error={loadError} reload={reload} />;
  const q = filter.trim().toLowerCase();
  const titleOf = (id: string) => titles?.[id] || 'Untitled conversation';
  const shown = facts.filter((f) => matches(f, f.conversationId ? titleOf(f.conversationId) : '', q));
  const owners = [...new Set(shown.filter((f) => f.conversationId).map((f) => f.conversationId))];
  const lists = { editingId, setEditingId, reload };
  return (
    <div className="memory-view">
      {loadError && <ErrorLine error={loadError} />}
      <div className="memory-filter">
        <label htmlFor={filterId}>Filter facts</label>
        <input
          id={filterId}
          className="errand-input"
          type="search"
          value={filter}
          placeholder="A key, a value or a conversation"
          onChange={(e) => setFilter(e.target.value)}
        />
      </div>
      {q !== '' && shown.length === 0 && <p className="memory-empty">No fact matches {JSON.stringify(filter.trim())}.</p>}
      <FactList title="All conversations" facts={shown.filter((f) => f.scope === 'global')} conversationId={null} {...lists} />
      {owners.map((id) => (
        <FactList key={id} title={titleOf(id)} facts={shown.filter((f) => f.conversationId === id)} conversationId={id} {...lists} />
      ))}
      <AddFact conversationId={null} adding={adding} setAdding={setAdding} reload={reload} />
    </div>
  );
}

import { useEffect, useId, useState } from 'react';
import { toApiError } from '../../api/errors';
import type { SavedPrompt } from '../../api/types';
import { askConfirm } from '../../stores/confirm';
import { createPrompt, deletePrompt, loadPrompts, updatePrompt, usePromptsStore } from '../../stores/prompts';
import { PromptForm } from './PromptForm';
import './prompts.css';

/**
 * Settings → Prompts: the saved prompts, renamed, edited and deleted here
 * (deleting asks first), and New prompt.
 */
export function PromptsSection() {
  const prompts = usePromptsStore((s) => s.list);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const headId = useId();

  useEffect(() => {
    void loadPrompts();
  }, []);

  const remove = async (p: SavedPrompt) => {
    setError(null);
    const ok = await askConfirm({
      title: `Delete the prompt ${p.name}?`,
      text: 'It leaves the / menu. Messages already sent with it stay as they are.',
      confirmLabel: 'Delete prompt',
      cancelLabel: 'Keep it',
    });
    if (!ok) return;
    try {
      await deletePrompt(p.id);
    } catch (err) {
      setError(toApiError(err).message);
    }
  };

  return (
    <section className="settings-group prompts-section" aria-labelledby={headId}>
      <h3 id={headId}>Prompts</h3>
      <p className="settings-help">
        Messages kept under a name (Save as prompt, under any message). Type / in an empty message box to pick one
        with ↑ and ↓; Enter puts its text in the box. They go into the backup.
      </p>
      {prompts.length === 0 ? (
        <p className="muted">No saved prompts yet.</p>
      ) : (
        <ul className="prompts-list" aria-labelledby={headId}>
          {prompts.map((p) =>
            editing === p.id ? (
              <li key={p.id} className="prompts-item" aria-label={p.name}>
                <div className="prompts-item-text">
                  <PromptForm
                    initial={p}
                    submitLabel="Save prompt"
                    onCancel={() => setEditing(null)}
                    onSave={async (name, text) => {
                      await updatePrompt(p.id, name, text);
                      setEditing(null);
                    }}
                  />
                </div>
              </li>
            ) : (
              <li key={p.id} className="prompts-item" aria-label={p.name}>
                <span className="prompts-item-text">
                  <strong className="slash-label">{p.name}</strong>
                  <span className="slash-detail">{p.text}</span>
                </span>
                <span className="prompts-item-actions">
                  <button
                    type="button"
                    className="btn btn-ghost btn-small"
                    aria-label={`Edit ${p.name}`}
                    onClick={() => {
                      setError(null);
                      setEditing(p.id);
                    }}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost btn-small"
                    aria-label={`Delete ${p.name}`}
                    onClick={() => void remove(p)}
                  >
                    Delete
                  </button>
                </span>
              </li>
            ),
          )}
        </ul>
      )}
      {editing === 'new' ? (
        <PromptForm
          initial={{ name: '', text: '' }}
          submitLabel="Save prompt"
          onCancel={() => setEditing(null)}
          onSave={async (name, text) => {
            await createPrompt(name, text);
            setEditing(null);
          }}
        />
      ) : (
        <button type="button" className="btn btn-small" onClick={() => setEditing('new')}>
          New prompt
        </button>
      )}
      {error && (
        <p className="settings-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

import { useCallback, useEffect, useId, useState } from 'react';
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import type { ChangedFile, FileChoice } from '../../api/types';
import { DiffView } from '../../components/DiffView';
import { filesToShow, useFilesChanged } from '../../stores/filesChanged';
import { applyFilesChanged, watchFilesChanged } from '../../stores/sync';
import './checkpoints.css';

type Direction = 'undo' | 'redo';

const CHANGE_TEXT: Record<ChangedFile['change'], string> = { created: 'created', changed: 'changed', deleted: 'deleted' };

/** One changed file: its path, and its diff when opened. */
function FileRow({ taskId, file }: { taskId: string; file: ChangedFile }) {
  const [open, setOpen] = useState(false);
  const [diff, setDiff] = useState<string | null>(null);
  const [error, setError] = useState('');
  const id = useId();
  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next && diff === null) {
      setError('');
      api.fileDiff(taskId, file.path).then(setDiff, (err) => setError(toApiError(err).message));
    }
  };
  return (
    <li className="files-row">
      <button type="button" className="files-file" aria-expanded={open} aria-controls={id} onClick={toggle}>
        <span className="chevron" aria-hidden="true">
          ›
        </span>
        <span className="files-path">{file.path}</span>
        <span className={`files-change files-change-${file.change}`}>{CHANGE_TEXT[file.change]}</span>
      </button>
      {open && (
        <div id={id} className="files-diff">
          {error ? (
            <p className="files-error" role="alert">
              {error}
            </p>
          ) : diff === null ? (
            <p className="muted">Loading…</p>
          ) : (
            <DiffView diff={diff} label={file.path} />
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The files that changed since the task: for each, keep it as it is now or
 * restore the state the undo (or redo) goes back to. Nothing is changed
 * until every file has a choice.
 */
export function ConflictChoice({
  paths,
  direction,
  busy,
  onApply,
  onCancel,
}: {
  paths: string[];
  direction: Direction;
  busy: boolean;
  onApply: (choices: Record<string, FileChoice>) => void;
  onCancel: () => void;
}) {
  const [choices, setChoices] = useState<Record<string, FileChoice>>({});
  const name = useId();
  const restore = direction === 'undo' ? 'Restore as before the task' : 'Restore as the task left it';
  const ready = paths.every((p) => choices[p]);
  const many = paths.length > 1;
  return (
    <fieldset className="files-conflicts">
      <legend>
        {many ? `${paths.length} files were` : 'A file was'} changed after the task. Choose for{' '}
        {many ? 'each' : 'it'}: keep it as it is now, or {restore.toLowerCase()}.
      </legend>
      {paths.map((p, i) => (
        <div key={p} className="files-conflict" role="radiogroup" aria-label={p}>
          <span className="files-path">{p}</span>
          {(['keep', 'restore'] as const).map((c) => (
            <label key={c} className="files-choice">
              <input
                type="radio"
                name={`${name}-${i}`}
                value={c}
                checked={choices[p] === c}
                onChange={() => setChoices((old) => ({ ...old, [p]: c }))}
              />
              {c === 'keep' ? 'Keep current' : restore}
            </label>
          ))}
        </div>
      ))}
      <div className="files-actions">
        <button type="button" className="btn btn-primary" disabled={!ready || busy} onClick={() => onApply(choices)}>
          {direction === 'undo' ? 'Undo with these choices' : 'Redo with these choices'}
        </button>
        <button type="button" className="btn btn-ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

function outcomeText(direction: Direction, restored: number, kept: number): string {
  const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const did = direction === 'undo' ? `Undone: ${files(restored)} restored` : `Redone: ${files(restored)} changed back`;
  return kept > 0 ? `${did}, ${files(kept)} kept as ${kept === 1 ? 'it is' : 'they are'} now.` : `${did}.`;
}

/**
 * "Files changed (n)" on a finished task: each file's diff, "Undo changes"
 * (all files as before the task) and, once undone, "Redo changes". A file
 * changed after the task is a conflict chosen per file; a checkpoint pruned
 * past the storage limit can no longer be undone, and says so. Changes made
 * through MCP tools are named as not undoable. The card stays until the
 * person dismisses it.
 */
export function FilesChangedCard({
  taskId,
  className = '',
  lead = '',
}: {
  taskId: string;
  className?: string;
  /** A line above the card's controls, when it stands on its own. */
  lead?: string;
}) {
  // Read when the card shows, refreshed when an undo or redo is stored.
  const { changed, error: loadError } = useFilesChanged(taskId);
  useEffect(() => watchFilesChanged(taskId), [taskId]);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [conflicts, setConflicts] = useState<{ direction: Direction; paths: string[] } | null>(null);
  const listId = useId();

  const dismiss = async () => {
    setBusy(true);
    setError('');
    try {
      await api.dismissChanges(taskId);
      applyFilesChanged(await api.filesChanged(taskId));
    } catch (err) {
      setError(toApiError(err).message);
    } finally {
      setBusy(false);
    }
  };

  const revert = useCallback(
    async (direction: Direction, choices: Record<string, FileChoice> = {}) => {
      setBusy(true);
      setError('');
      setNote('');
      try {
        const out = await (direction === 'undo' ? api.undoChanges : api.redoChanges)(taskId, choices);
        if (out.conflicts.length > 0) {
          setConflicts({ direction, paths: out.conflicts });
          return;
        }
        setConflicts(null);
        setNote(outcomeText(direction, out.restored.length, out.kept.length));
        applyFilesChanged(await api.filesChanged(taskId));
      } catch (err) {
        setError(toApiError(err).message);
      } finally {
        setBusy(false);
      }
    },
    [taskId],
  );

  if (loadError) {
    return (
      <p className="files-error" role="alert">
        The files this task changed could not be listed: {loadError}
      </p>
    );
  }
  if (!filesToShow(changed)) return null;
  const canRevert = !changed.pruned && !busy && !conflicts;
  return (
    <section className={`files-card ${className}`.trim()} role="region" aria-label="Files this task changed">
      {lead && <p className="files-note">{lead}</p>}
      <div className="files-head">
        <button type="button" className="files-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
          <span className="chevron" aria-hidden="true">
            ›
          </span>
          Files changed ({changed.files.length})
        </button>
        {changed.undone && <span className="files-badge">Undone</span>}
        <span className="files-spacer" />
        {!changed.pruned &&
          changed.files.length > 0 &&
          (changed.undone ? (
            <button type="button" className="btn btn-ghost" disabled={!canRevert} onClick={() => void revert('redo')}>
              Redo changes
            </button>
          ) : (
            <button type="button" className="btn btn-ghost" disabled={!canRevert} onClick={() => void revert('undo')}>
              Undo changes
            </button>
          ))}
        {!changed.pruned && (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void dismiss()}>
            Dismiss
          </button>
        )}
      </div>
      {changed.notUndoable.length > 0 && (
        <p className="muted files-note">
          Not undoable: changes made through MCP tools ({changed.notUndoable.join(', ')}) are not kept, so Undo changes
          cannot restore them.
        </p>
      )}
      {changed.pruned && (
        <p className="muted files-note">
          These changes can no longer be undone: their checkpoint was removed past the storage limit in Settings.
        </p>
      )}
      {open && (
        <ul id={listId} className="files-list">
          {changed.files.map((f) => (
            <FileRow key={f.path} taskId={taskId} file={f} />
          ))}
        </ul>
      )}
      {conflicts && (
        <ConflictChoice
          paths={conflicts.paths}
          direction={conflicts.direction}
          busy={busy}
          onApply={(choices) => void revert(conflicts.direction, choices)}
          onCancel={() => setConflicts(null)}
        />
      )}
      {error && (
        <p className="files-error" role="alert">
          {error}
        </p>
      )}
      {note && (
        <p className="files-note" role="status">
          {note}
        </p>
      )}
    </section>
  );
}

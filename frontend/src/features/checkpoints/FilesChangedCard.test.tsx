import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FilesChanged } from '../../api/types';

import * as api from '../../api';
import * as events from '../../events';
import { startSync } from '../../stores/sync';
import { resetStores } from '../../test/fixtures';
import { FilesChangedCard } from './FilesChangedCard';

const T = 't1';
const TWO: FilesChanged = {
  taskId: T,
  undone: false,
  pruned: false,
  dismissed: false,
  notUndoable: [],
  files: [
    { path: 'notes/plan.txt', change: 'changed' },
    { path: 'hello.txt', change: 'created' },
  ],
};

/** Go's checkpoint:filesChanged event, delivered through the stores' subscription (startSync). */
function published(payload: FilesChanged): void {
  const handler = vi.mocked(events.onFilesChanged).mock.calls.at(-1)?.[0];
  if (!handler) throw new Error('nothing subscribed to checkpoint:filesChanged');
  handler(payload);
}

let stopSync = () => {};
beforeEach(() => {
  resetStores();
  stopSync = startSync();
  vi.mocked(api.filesChanged).mockReset().mockResolvedValue(TWO);
  vi.mocked(api.fileDiff).mockReset();
  vi.mocked(api.undoChanges).mockReset();
  vi.mocked(api.redoChanges).mockReset();
});

afterEach(() => stopSync());

describe('Files changed card', () => {
  it('shows nothing for a task that changed no files', async () => {
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, files: [] });
    const { container } = render(<FilesChangedCard taskId={T} />);
    await act(async () => {});
    expect(api.filesChanged).toHaveBeenCalledWith(T);
    expect(container).toBeEmptyDOMElement();
  });

  it('lists the files and opens each one’s diff', async () => {
    vi.mocked(api.fileDiff).mockResolvedValue('--- a/notes/plan.txt\n+++ b/notes/plan.txt\n@@ -1 +1 @@\n-old line\n+new line\n');
    render(<FilesChangedCard taskId={T} />);
    const toggle = await screen.findByRole('button', { name: /^Files changed/ });
    expect(toggle).toHaveTextContent('Files changed (2)');
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('button', { name: /notes\/plan\.txt/ }));
    expect(api.fileDiff).toHaveBeenCalledWith(T, 'notes/plan.txt');
    const diff = await screen.findByLabelText('notes/plan.txt', { selector: 'pre' });
    expect(diff).toHaveTextContent('-old line');
    expect(diff).toHaveTextContent('+new line');
    expect(screen.getByText('created')).toBeInTheDocument();
  });

  it('undoes all the changes, then offers Redo changes', async () => {
    vi.mocked(api.undoChanges).mockResolvedValue({ restored: ['hello.txt', 'notes/plan.txt'], kept: [], conflicts: [] });
    render(<FilesChangedCard taskId={T} />);
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, undone: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Undo changes' }));
    expect(api.undoChanges).toHaveBeenCalledWith(T, {});
    expect(await screen.findByRole('status')).toHaveTextContent('Undone: 2 files restored.');
    expect(screen.getByRole('button', { name: 'Redo changes' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Undo changes' })).not.toBeInTheDocument();
  });

  it('asks per file when files changed since the task, and sends the choices', async () => {
    vi.mocked(api.undoChanges)
      .mockResolvedValueOnce({ restored: [], kept: [], conflicts: ['hello.txt', 'notes/plan.txt'] })
      .mockResolvedValueOnce({ restored: ['notes/plan.txt'], kept: ['hello.txt'], conflicts: [] });
    render(<FilesChangedCard taskId={T} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Undo changes' }));
    const apply = await screen.findByRole('button', { name: 'Undo with these choices' });
    expect(apply).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Undo changes' })).toBeDisabled();

    await userEvent.click(within(screen.getByRole('radiogroup', { name: 'hello.txt' })).getByLabelText('Keep current'));
    expect(apply).toBeDisabled(); // every file needs a choice
    await userEvent.click(
      within(screen.getByRole('radiogroup', { name: 'notes/plan.txt' })).getByLabelText('Restore as before the task'),
    );
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, undone: true });
    await userEvent.click(apply);
    expect(api.undoChanges).toHaveBeenLastCalledWith(T, { 'hello.txt': 'keep', 'notes/plan.txt': 'restore' });
    expect(await screen.findByRole('status')).toHaveTextContent('Undone: 1 file restored, 1 file kept as it is now.');
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
  });

  it('says why an undo was refused, and changes nothing on the card', async () => {
    vi.mocked(api.undoChanges).mockRejectedValue(
      new Error(JSON.stringify({ code: 'not_found', message: 'the folder "/tmp/ws" is gone; nothing was changed' })),
    );
    render(<FilesChangedCard taskId={T} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Undo changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('is gone; nothing was changed');
    expect(screen.getByRole('button', { name: 'Undo changes' })).toBeEnabled();
  });

  it('a pruned checkpoint says it can no longer be undone, with no Undo changes', async () => {
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, pruned: true });
    render(<FilesChangedCard taskId={T} />);
    expect(await screen.findByText(/can no longer be undone/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo changes' })).not.toBeInTheDocument();
  });

  it('follows an undo stored elsewhere (checkpoint:filesChanged)', async () => {
    render(<FilesChangedCard taskId={T} />);
    await screen.findByRole('button', { name: 'Undo changes' });
    act(() => published({ ...TWO, undone: true }));
    expect(screen.getByRole('button', { name: 'Redo changes' })).toBeInTheDocument();
    expect(screen.getByText('Undone')).toBeInTheDocument();
  });

  it('Dismiss hides the card for good; a refused dismissal says why and keeps it', async () => {
    vi.mocked(api.dismissChanges).mockReset().mockRejectedValueOnce({ code: 'conflict', message: 'the files this task changed are no longer kept' });
    const { container } = render(<FilesChangedCard taskId={T} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('no longer kept');
    expect(screen.getByRole('button', { name: /^Files changed/ })).toBeInTheDocument();

    vi.mocked(api.dismissChanges).mockResolvedValueOnce(undefined);
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, dismissed: true });
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(api.dismissChanges).toHaveBeenLastCalledWith(T);
    await act(async () => {});
    expect(container).toBeEmptyDOMElement();
  });

  it('names the MCP tools whose changes Undo cannot restore, and never offers to undo them alone', async () => {
    vi.mocked(api.filesChanged).mockResolvedValue({ ...TWO, files: [], notUndoable: ['files__write_file'] });
    render(<FilesChangedCard taskId={T} />);
    expect(await screen.findByText(/Not undoable: changes made through MCP tools \(files__write_file\)/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Files changed (0)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo changes' })).toBeNull();
  });
});

// Undo stays in the workspace: a task whose commands made a folder, then
// swapped it for a link to a folder outside (mkdir sub …, then rm -rf sub
// && ln -s OUTSIDE sub), never shows the outside files in its diff, and
// its Undo neither deletes nor writes them: the path under the link is a
// conflict, and Keep current leaves everything as it is.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openedConversationId, readIfExists, useTempWorkspace } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('undo-link');
let dir;
let outside;
before(async () => {
  await stack.start();
  const conversationId = await openedConversationId(stack.page);
  dir = await useTempWorkspace(stack.page, conversationId, 'undo-link');
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'errand-e2e-outside-'));
  await fs.writeFile(path.join(outside, 'notes.txt'), 'my own notes\n');
  // Both commands run without asking: this file is about the undo.
  await stack.page.evaluate(async () => {
    const s = await window.go.app.Settings.GetSettings();
    await window.go.app.Settings.SaveSettings({ ...s, autoApprove: { ...s.autoApprove, writes: true, destructive: true } });
  });
});
after(async () => {
  await stack.stop();
  for (const d of [dir, outside]) if (d) await fs.rm(d, { recursive: true, force: true });
});

test('Undo after a link swap leaves the outside file untouched', { timeout: 120_000 }, stack.test(async (page) => {
  const done = page.locator('.card-complete');
  await sendMessage(page, `[run] mkdir sub && echo mine > sub/notes.txt ;; rm -rf sub && ln -s ${outside} sub`);
  await eventually(async () => assert.equal(await done.count(), 1), { what: 'the task to complete' });
  await waitForStatus(page, 'Completed');
  assert.equal((await fs.lstat(path.join(dir, 'sub'))).isSymbolicLink(), true, 'the commands made the link');

  const card = done.last().getByRole('region', { name: 'Files this task changed' });
  await card.getByRole('button', { name: /^Files changed/ }).click();
  await card.getByRole('button', { name: /sub\/notes\.txt/ }).click();
  const diff = card.getByLabel('sub/notes.txt', { exact: true }).and(page.locator('pre'));
  await diff.waitFor();
  assert.doesNotMatch(await diff.textContent(), /my own notes/, 'the diff shows a file outside the workspace');

  await card.getByRole('button', { name: 'Undo changes' }).click();
  const choice = card.getByRole('radiogroup', { name: 'sub/notes.txt' });
  await choice.waitFor();
  assert.equal(await readIfExists(path.join(outside, 'notes.txt')), 'my own notes\n', 'a conflict changes nothing');
  await choice.getByLabel('Keep current').check();
  await card.getByRole('button', { name: 'Undo with these choices' }).click();
  await card.getByRole('status').filter({ hasText: /Undone: 0 files restored, 1 file kept as it is now\./ }).waitFor();
  assert.equal(await readIfExists(path.join(outside, 'notes.txt')), 'my own notes\n', 'the outside file is untouched');
  assert.deepEqual(await fs.readdir(outside), ['notes.txt']);
}));

// A task's changes to the workspace can be undone: "Files changed" lists
// them with each diff, "Undo changes" restores the folder as it was, and
// "Redo changes" puts the task's version back. A file edited after the
// task is a conflict the person resolves per file.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openedConversationId, readIfExists, useTempWorkspace } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('undo');
const shots = process.env.ERRAND_E2E_SHOTS;
let conversationId;
let dir;
before(async () => {
  await stack.start();
  conversationId = await openedConversationId(stack.page);
  dir = await useTempWorkspace(stack.page, conversationId, 'undo');
  // Writes run without asking: this file is about what happens after.
  await stack.page.evaluate(async () => {
    const s = await window.go.app.Settings.GetSettings();
    await window.go.app.Settings.SaveSettings({ ...s, autoApprove: { ...s.autoApprove, writes: true } });
  });
});
after(async () => {
  await stack.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const file = () => path.join(dir, 'hello.txt'); // what the mock's [write] writes

/** The Files changed card of the last finished task. */
function lastCard(page) {
  return page.locator('.card-complete').last().getByRole('region', { name: 'Files this task changed' });
}

async function shot(page, locator, name) {
  if (shots) await locator.screenshot({ path: path.join(shots, `undo-${name}.png`) });
}

/** Sends a [write] task and waits for its Task complete card. */
async function runWrite(page, prompt) {
  const done = page.locator('.card-complete');
  const before = await done.count();
  await sendMessage(page, prompt);
  await eventually(async () => assert.equal(await done.count(), before + 1), { what: 'the task to complete' });
  await waitForStatus(page, 'Completed');
  assert.equal(await readIfExists(file()), 'Hello from Errand');
}

test('a task writes a file; Undo changes restores it, and Redo changes puts it back', { timeout: 120_000 }, stack.test(async (page) => {
  await fs.writeFile(file(), 'My own greeting\n');
  await stack.open({ reload: true });
  await runWrite(page, '[write] a greeting');

  const card = lastCard(page);
  const toggle = card.getByRole('button', { name: /^Files changed/ });
  await eventually(async () => assert.equal(await toggle.textContent(), '›Files changed (1)'));
  await toggle.click();
  await card.getByRole('button', { name: /hello\.txt/ }).click();
  const diff = card.getByLabel('hello.txt', { exact: true }).and(page.locator('pre'));
  await eventually(async () => {
    assert.deepEqual((await diff.locator('.diff-del').allTextContents()).map((s) => s.trim()), ['-My own greeting']);
    assert.deepEqual((await diff.locator('.diff-add').allTextContents()).map((s) => s.trim())[0], '+Hello from Errand');
  });
  await shot(page, page.locator('.card-complete').last(), 'diff');

  await card.getByRole('button', { name: 'Undo changes' }).click();
  await eventually(async () => assert.equal(await readIfExists(file()), 'My own greeting\n'));
  await card.getByRole('status').filter({ hasText: 'Undone: 1 file restored.' }).waitFor();
  await card.getByText('Undone', { exact: true }).waitFor();

  // The undo can be undone.
  await card.getByRole('button', { name: 'Redo changes' }).click();
  await eventually(async () => assert.equal(await readIfExists(file()), 'Hello from Errand'));
  await card.getByRole('button', { name: 'Undo changes' }).waitFor();

  // What is stored survives a reload.
  await card.getByRole('button', { name: 'Undo changes' }).click();
  await card.getByRole('button', { name: 'Redo changes' }).waitFor();
  await stack.open({ reload: true });
  await lastCard(page).getByRole('button', { name: 'Redo changes' }).waitFor();
  assert.equal(await readIfExists(file()), 'My own greeting\n');
}));

test('a file edited after the task is a conflict: keep it, or restore the before-state', { timeout: 120_000 }, stack.test(async (page) => {
  await fs.writeFile(file(), 'Before the task\n');
  await runWrite(page, '[write] another greeting');
  await fs.writeFile(file(), 'Edited by me afterwards\n');

  const card = lastCard(page);
  await card.getByRole('button', { name: 'Undo changes' }).click();
  const choice = card.getByRole('radiogroup', { name: 'hello.txt' });
  await choice.waitFor();
  await shot(page, page.locator('.card-complete').last(), 'conflict');
  assert.equal(await readIfExists(file()), 'Edited by me afterwards\n', 'a conflict changes nothing until it is chosen');
  const apply = card.getByRole('button', { name: 'Undo with these choices' });
  assert.equal(await apply.isDisabled(), true);

  await choice.getByLabel('Keep current').check();
  await apply.click();
  await card.getByRole('status').filter({ hasText: 'Undone: 0 files restored, 1 file kept as it is now.' }).waitFor();
  assert.equal(await readIfExists(file()), 'Edited by me afterwards\n');

  // Redo now finds the person's edit where the task's version was: restore it.
  await card.getByRole('button', { name: 'Redo changes' }).click();
  const redoChoice = card.getByRole('radiogroup', { name: 'hello.txt' });
  await redoChoice.getByLabel('Restore as the task left it').check();
  await card.getByRole('button', { name: 'Redo with these choices' }).click();
  await eventually(async () => assert.equal(await readIfExists(file()), 'Hello from Errand'));
  await card.getByRole('button', { name: 'Undo changes' }).waitFor();
}));

test('Settings shows the space checkpoints take, and saves their limit and excluded folders', { timeout: 60_000 }, stack.test(async (page) => {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const group = dialog.getByRole('group', { name: 'Checkpoints (Undo changes)' });
  await group.scrollIntoViewIfNeeded();
  // The two tasks above kept a few short versions of hello.txt.
  await group.getByText(/^Checkpoints take \d+ bytes of 1\.0 GB now\.$/).waitFor();
  await shot(page, group, 'settings');
  await group.getByLabel('Storage limit').fill('50');
  await group.getByLabel('Folders not kept').fill('.git, node_modules, dist');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await eventually(async () => {
    const s = await page.evaluate(() => window.go.app.Settings.GetSettings());
    assert.equal(s.checkpointLimitMb, 50);
    assert.deepEqual(s.checkpointExclude, ['.git', 'node_modules', 'dist']);
    const storage = await page.evaluate(() => window.go.app.Checkpoints.Storage());
    assert.equal(storage.limitBytes, 50 * 1024 * 1024);
  });
  await group.getByText(/^Checkpoints take \d+ bytes of 50\.0 MB now\.$/).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
}));

test('a task stopped after changing a file keeps Undo changes where it ended, after the next task started', { timeout: 180_000 }, stack.test(async (page) => {
  await fs.writeFile(file(), 'Before the stopped task\n');
  await sendMessage(page, '[write-then-ask] then wait');
  await page.getByText('Shall I go on?').first().waitFor();
  await eventually(async () => assert.equal(await readIfExists(file()), 'Hello from Errand'));
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  // Stopping a task that waits for an answer is confirmed first.
  await page.getByRole('button', { name: 'Stop task', exact: true }).click();
  await waitForStatus(page, 'Stopped');

  // In the transcript, at the notice that ended the task.
  const stopped = page.getByRole('log').getByRole('region', { name: 'Files this task changed' }).filter({ hasText: 'The stopped task changed files:' });
  await stopped.getByRole('button', { name: 'Files changed (1)' }).waitFor();
  await shot(page, stopped, 'stopped');

  // The next task starts and ends; the stopped task's Undo is still there.
  await sendMessage(page, 'Something else');
  await page.getByText('Done: Something else').waitFor();
  await waitForStatus(page, 'Completed');
  await stopped.getByRole('button', { name: 'Undo changes' }).click();
  await eventually(async () => assert.equal(await readIfExists(file()), 'Before the stopped task\n'));
  await stopped.getByRole('button', { name: 'Redo changes' }).waitFor();

  // Dismissed, it is gone for good (a reload too); the files stay as they are.
  await stopped.getByRole('button', { name: 'Dismiss' }).click();
  await stopped.waitFor({ state: 'detached' });
  await stack.open({ reload: true });
  await page.getByText('Stopped by user').first().waitFor();
  assert.equal(await stopped.count(), 0);
  assert.equal(await readIfExists(file()), 'Before the stopped task\n');

  // Dismissing an unknown task's changes is a clear error.
  const err = await page.evaluate(() => window.go.app.Checkpoints.DismissChanges('no-such-task').then(() => '', (e) => String(e?.message ?? e)));
  assert.match(err, /"code":"not_found".*no task with id/);
}));

// Helpers for the agent-control tests: the cards that wait for the person
// (approval, pause, interruption), the workspace folder, and waiting for a
// waiting state that the dev server may have delivered out of order.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { backendActiveTask, eventually, openConversation, statusText, taskEvents } from './ui.mjs';

export function cards(page) {
  const approval = page.getByRole('region', { name: 'Approval needed' });
  const pause = page.getByRole('region', { name: 'Task paused' });
  const interrupted = page.getByRole('region', { name: 'Task interrupted' });
  const failed = page.getByRole('region', { name: 'Task failed' });
  const button = (region, name) => region.getByRole('button', { name, exact: true });
  return { approval, pause, interrupted, failed, button };
}

/**
 * True when the page received an update after the first one with this
 * (waiting) status that is not this status: while a task waits for the
 * person Go sends nothing more, so such an update was an earlier one
 * delivered late by the dev server (see e2e/README.md).
 */
export function reorderedAfter(events, status) {
  const i = events.findIndex((e) => e.status === status);
  return i >= 0 && events.slice(i + 1).some((e) => e.status !== status);
}

/**
 * Waits until Go has put the conversation's task in `status`, then until
 * the page shows it (`check` throws until it does). If it does not, and the
 * page got a stale update after the waiting one, the test says so and
 * reloads: the snapshot must then show the waiting state. Returns Go's task.
 */
export async function waitForWaiting(stack, t, { title, status, check }) {
  const page = stack.page;
  const task = await eventually(
    async () => {
      const at = await backendActiveTask(page, title);
      assert.equal(at?.status, status, `Go's active task: ${JSON.stringify(at)}`);
      return at;
    },
    { what: `Go to put the task in ${status}` },
  );
  await eventually(async () => {
    const seen = await taskEvents(page, task.id);
    assert.ok(seen.some((e) => e.status === status), `updates received: ${JSON.stringify(seen)}`);
  });
  try {
    // The page may have dropped a stale update (task revisions): what it
    // shows is what counts.
    await eventually(check, { what: `the page to show ${status}`, timeout: 10_000 });
  } catch (err) {
    const seen = await taskEvents(page, task.id);
    if (!reorderedAfter(seen, status)) throw err;
    t.diagnostic(
      `the dev server delivered task updates out of order (${seen.map((e) => `${e.status}#${e.step}`).join(' → ')}); ` +
        `the page showed "${await statusText(page)}"; reloading`,
    );
    await stack.open({ reload: true });
    await openConversation(page, title);
    await eventually(check, { what: `the page to show ${status} after reloading` });
  }
  return task;
}

/**
 * The conversation the app opens at start: the newest (in a fresh data
 * folder, the one it made; a reload during startup can make a second).
 */
export async function openedConversationId(page) {
  const list = await page.evaluate(() => window.go.app.Conversations.ListConversations());
  assert.ok(list?.length >= 1, `conversations: ${JSON.stringify(list)}`);
  return [...list].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0].id;
}

/** A fresh temporary folder, made the conversation's workspace through the Go binding. */
export async function useTempWorkspace(page, conversationId, name) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `errand-e2e-ws-${name}-`));
  const c = await page.evaluate(
    ([id, d]) => window.go.app.Conversations.SetWorkspace(id, d),
    [conversationId, dir],
  );
  assert.equal(c.workspace, dir, `SetWorkspace answered ${JSON.stringify(c)}`);
  assert.equal(await page.evaluate((id) => window.go.app.Conversations.WorkspaceDir(id), conversationId), dir);
  return dir;
}

/** The file's text, or null when it does not exist. */
export async function readIfExists(file) {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

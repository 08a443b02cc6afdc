// A tool that writes waits for approval: the card shows what it would do,
// Approve runs it, Deny (with a reason) does not, and the model is told why.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cards, openedConversationId, readIfExists, useTempWorkspace, waitForWaiting } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, openConversation, sendMessage, show, statusText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const TITLE = '[write] a greeting'; // the conversation takes its first prompt as title
const stack = new Stack('approval');
const dirs = [];
let conversationId;
before(async () => {
  await stack.start();
  conversationId = await openedConversationId(stack.page);
});
after(async () => {
  await stack.stop();
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

/** Everything the approval card of [write] shows. */
async function assertApprovalCard(page) {
  const c = cards(page);
  const u = ui(page);
  await c.approval.waitFor({ state: 'visible', timeout: 2_000 });
  const text = (await c.approval.textContent()) ?? '';
  assert.match(text, /write_file/);
  assert.match(text, /Writes files/);
  const diff = c.approval.getByLabel('What it would change');
  assert.match((await diff.textContent()) ?? '', /\+\+\+ b\/hello\.txt/);
  assert.equal(((await diff.locator('.diff-add').allTextContents()).map((s) => s.trim())).join('|'), '+Hello from Errand');
  const args = (await c.approval.getByLabel('Arguments').textContent()) ?? '';
  assert.deepEqual(JSON.parse(args), { path: 'hello.txt', content: 'Hello from Errand' });
  assert.equal(await statusText(page), 'Waiting for your approval: write_file');
  assert.equal(await u.input.isDisabled(), false, 'a message can be queued while the approval waits');
  assert.equal(await page.getByRole('button', { name: 'Stop', exact: true }).count(), 1, 'one Stop');
  assert.match((await u.row(TITLE).textContent()) ?? '', /Needs input/);
}

test('approve: the card shows the diff, and the file is written in the workspace', { timeout: 120_000 }, stack.test(async (page, t) => {
  const dir = await useTempWorkspace(page, conversationId, 'approve');
  dirs.push(dir);
  // The header reads the folder from Go.
  await stack.open({ reload: true });
  await page.getByTitle(dir, { exact: true }).waitFor({ state: 'visible' });

  await sendMessage(page, TITLE);
  await waitForWaiting(stack, t, { title: TITLE, status: 'waiting_approval', check: () => assertApprovalCard(page) });
  assert.equal(await readIfExists(path.join(dir, 'hello.txt')), null, 'nothing is written before the approval');

  // Playwright waits out the half-second guard (the buttons are aria-disabled meanwhile).
  const c = cards(page);
  await c.button(c.approval, 'Approve').click();

  await waitForStatus(page, 'Completed');
  assert.equal(await readIfExists(path.join(dir, 'hello.txt')), 'Hello from Errand');
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    const agent = items.filter((i) => i.kind === 'agent').map((i) => i.text);
    assert.ok(agent.some((x) => /^Result: Wrote 17 bytes to hello\.txt\./.test(x)), `transcript: ${show(items)}`);
    assert.deepEqual(items.at(-1), { kind: 'complete', text: 'Finished the write task' }, `transcript: ${show(items)}`);
  });
  assert.equal(await c.approval.count(), 0, 'the card is gone');
  assert.equal(await ui(page).input.isEnabled(), true, 'the composer is enabled again');
}));

test('deny with a reason: nothing is written and the model gets the reason', { timeout: 120_000 }, stack.test(async (page, t) => {
  const dir = await useTempWorkspace(page, conversationId, 'deny');
  dirs.push(dir);
  await stack.open({ reload: true });
  await openConversation(page, TITLE);

  await sendMessage(page, '[write] another greeting');
  await waitForWaiting(stack, t, { title: TITLE, status: 'waiting_approval', check: () => assertApprovalCard(page) });

  const c = cards(page);
  await c.button(c.approval, 'Deny').click();
  await c.approval.getByRole('textbox', { name: /Reason/ }).fill('Please keep the folder empty');
  await c.button(c.approval, 'Deny').click();

  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    const last = items.filter((i) => i.kind === 'agent').at(-1);
    assert.equal(
      last?.text,
      'Result: The user denied this call. Their reason: Please keep the folder empty',
      `transcript: ${show(items)}`,
    );
  });
  assert.equal(await readIfExists(path.join(dir, 'hello.txt')), null, 'the denied file was not written');
  // What Go stored: the tool result that the model received.
  const stored = await page.evaluate((id) => window.go.app.Conversations.LoadConversation(id), conversationId);
  const results = stored.messages.filter((m) => m.role === 'tool' && m.toolName === 'write_file');
  assert.equal(results.at(-1)?.content, 'The user denied this call. Their reason: Please keep the folder empty');
  assert.equal(results.at(-1)?.isError, true);
}));

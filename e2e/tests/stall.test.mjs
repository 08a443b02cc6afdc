// A model server that stops answering: the call is cut after the model
// timeouts set in Settings, tried once more, and the task fails saying so,
// with Retry offered — no Stop pressed. Meanwhile the status line counts
// the silence.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, statusText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('stall');
before(() => stack.start());
after(() => stack.stop());

test('Settings: the model timeouts set to their least, 5 s, and saved', { timeout: 60_000 }, stack.test(async (page) => {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const firstByte = dialog.getByLabel('Model first-byte timeout (s)', { exact: true });
  const idle = dialog.getByLabel('Model idle timeout (s)', { exact: true });
  await eventually(async () => assert.equal(await firstByte.inputValue(), '120', 'the default first-byte timeout'));
  assert.equal(await idle.inputValue(), '60', 'the default idle timeout');

  // Below the least is refused, with Go's reason at the field.
  await firstByte.fill('1');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await eventually(async () => assert.equal(await firstByte.getAttribute('aria-invalid'), 'true'));
  assert.match((await dialog.textContent()) ?? '', /model first-byte timeout must be between 5 and 3600 seconds/i);

  await firstByte.fill('5');
  await idle.fill('5');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await eventually(async () => assert.equal(((await dialog.getByRole('status').textContent()) ?? '').trim(), 'Saved.'));
  const stored = await page.evaluate(() => window.go.app.Settings.GetSettings());
  assert.equal(stored.modelFirstByteTimeoutSec, 5);
  assert.equal(stored.modelIdleTimeoutSec, 5);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}));

test('a stalled model: the silence counted, the task failed with the reason, and Retry completes it', { timeout: 120_000 }, stack.test(async (page) => {
  const c = cards(page);
  await sendMessage(page, '[stall] then recover');
  // The model sends nothing: the status line counts it (from 5 s on).
  await waitForStatus(page, /^Waiting for the model · \d+ s$/, { timeout: 30_000 });
  // Cut after 5 s, tried once more, cut again: the task fails by itself.
  await waitForStatus(page, 'Failed', { timeout: 60_000 });
  await c.failed.waitFor({ state: 'visible' });
  const reason = (await c.failed.textContent()) ?? '';
  assert.match(reason, /The model server stopped answering: nothing came for 5 s, also when the call was tried again/);
  assert.equal(await ui(page).input.isEnabled(), true, 'a failed task does not hold the conversation');

  await c.button(c.failed, 'Retry').click();
  await waitForStatus(page, 'Completed', { timeout: 30_000 });
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.deepEqual(items.slice(-2), [
      { kind: 'agent', text: 'Recovered.' },
      { kind: 'complete', text: 'Finished after the stall' },
    ], `transcript: ${show(items)}`);
  });
  assert.equal(await statusText(page), 'Completed');
}));

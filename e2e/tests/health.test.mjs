// A second Errand on the same data folder cannot start: its window says
// why and where the data is, and asks the backend nothing else.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack, startApp } from '../lib/harness.mjs';

const stack = new Stack('health');
before(() => stack.start());
after(() => stack.stop());

test('a second Errand on the same data folder shows why it cannot start', { timeout: 90_000 }, stack.test(async (page) => {
  const second = await startApp({ dataDir: stack.dataDir, baseURL: stack.mock.baseURL });
  stack.procs.push(second.proc); // stopped (and logged) with the rest
  await page.goto(second.url, { waitUntil: 'load' });
  const heading = page.getByRole('heading', { name: 'Errand cannot start' });
  await heading.waitFor({ state: 'visible' });
  const alert = (await page.getByRole('alert').textContent()) ?? '';
  assert.match(alert, /already running/i, `the reason: ${alert}`);
  assert.ok(alert.includes(stack.dataDir), `the data folder is named: ${alert}`);
  // Only Health is bound, and the window shows nothing that would need the rest.
  const bound = await page.evaluate(() => Object.keys(window.go?.app ?? {}));
  assert.deepEqual(bound, ['Health']);
  assert.equal(await page.getByRole('textbox').count(), 0);
  assert.equal(await page.getByRole('complementary', { name: 'Conversations' }).count(), 0);
  await second.proc.stop();

  // The first one is unaffected.
  await stack.open();
  assert.equal(await page.getByRole('heading', { name: 'Errand cannot start' }).count(), 0);
  assert.equal(await page.getByRole('note', { name: 'Read-only' }).count(), 0, 'no read-only banner');
}));

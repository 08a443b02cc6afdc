// The last first screen comes back first: once the window shows what a new
// start would and is quiet, it keeps that screen's markup; the next start's
// page shows it before its script runs, and the app takes over from it.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, waitForStatus } from '../lib/ui.mjs';

const PROMPT = '[complete] write the plan';
const stack = new Stack('first screen copy');
before(() => stack.start());
after(() => stack.stop());

/** The copy Go keeps in the data folder, once the page has saved one holding text. */
async function savedCopy(text) {
  const file = path.join(stack.dataDir, 'first-screen.json');
  return eventually(
    async () => {
      const saved = JSON.parse(await fs.readFile(file, 'utf8'));
      assert.ok(saved.html.includes(text), `the saved copy holds ${JSON.stringify(text)}`);
      return saved;
    },
    { timeout: 60_000, what: 'the first screen saved' },
  );
}

test('a restart shows the last first screen as the page loads, then the app takes over', { timeout: 180_000 }, stack.test(async (page) => {
  await sendMessage(page, PROMPT);
  await waitForStatus(page, 'Completed');
  const saved = await savedCopy('Finished the e2e task');
  const size = page.viewportSize();
  assert.deepEqual([saved.width, saved.height], [size.width, size.height], 'taken at the window size');

  await stack.restartApp({ signal: 'SIGTERM' });

  // Go serves the page with the copy in it, and the first screen's data.
  const served = await (await fetch(stack.url)).text();
  assert.match(served, /<div id="first-screen" inert="?"? aria-hidden="true"/);
  assert.match(served, /window\.errandFirstScreen=Promise\.resolve\(/);

  // The copy alone, the app's own script held back: what the window
  // paints before the script runs.
  const bare = await page.context().newPage();
  try {
    await bare.route(/\/assets\/index-[^/]*\.js$/, (route) => route.abort());
    // The page's clock stands still: the copy of a window whose script
    // never takes over goes after 10 s, which is not what is looked at here.
    await bare.clock.install();
    await bare.goto(stack.url, { waitUntil: 'load' });
    const copy = bare.locator('#first-screen[data-shown]');
    assert.equal(await copy.isVisible(), true, 'the copy is shown');
    const text = (await copy.textContent()) ?? '';
    for (const want of [PROMPT, 'All done.', 'Finished the e2e task']) {
      assert.ok(text.includes(want), `the copy shows ${JSON.stringify(want)}`);
    }
    assert.equal(await bare.locator('#root').innerHTML(), '', 'nothing else is rendered');
    assert.equal(await bare.evaluate(() => document.documentElement.dataset.platform), 'linux', "the copy has the platform's fonts");
    await bare.clock.runFor(10_000);
    assert.equal(await bare.locator('#first-screen').count(), 0, 'a copy the app never took over goes after 10 s');
  } finally {
    await bare.close();
  }

  // With its script, the app replaces the copy and shows the same conversation.
  await eventually(async () => {
    assert.equal(await page.locator('#first-screen').count(), 0, 'the copy is gone');
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.deepEqual(items.at(-1), { kind: 'complete', text: 'Finished the e2e task' }, `transcript: ${show(items)}`);
  });
}));

test('a copy that no longer shows the first screen is not shown, and goes', { timeout: 120_000 }, stack.test(async (page) => {
  await savedCopy('Finished the e2e task');
  // Go's tests change the first screen itself (a message, a title, a
  // setting); here the copy's file says it was taken of another one.
  const file = path.join(stack.dataDir, 'first-screen.json');
  const saved = JSON.parse(await fs.readFile(file, 'utf8'));
  await fs.writeFile(file, JSON.stringify({ ...saved, digest: '0'.repeat(64) }));

  await stack.restartApp({ signal: 'SIGTERM' });
  const log = path.join(stack.dataDir, 'logs', 'errand.log');
  await eventually(async () => {
    const lines = (await fs.readFile(log, 'utf8')).split('\n').filter((l) => l.includes('first screen snapshot'));
    assert.match(lines.at(-1) ?? '', /not shown.*the first screen changed/, `the log: ${lines.join('\n')}`);
  });
  assert.equal(await page.locator('#first-screen').count(), 0);
  await waitForStatus(page, 'Completed');
}));

// A conversation on a small-context model compacts: the model gets a summary
// of the older messages, the transcript shows where ("Earlier messages
// summarised · Show summary"), the originals stay, and the header meter shows
// how full the context is. "Compact now" does the same on demand.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, loadStored, sendMessage, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const CONTEXT = 1024;
// About 180 tokens each: two turns of these pass 75% of a 1,024-token budget.
const long = (tag) => `${tag}: ` + Array.from({ length: 180 }, (_, i) => `word${i}`).join(' ');
const SUMMARY = 'Summary from the mock model: the person sent long messages and each was echoed back.';

// The mock model holds the same context length as Errand's setting: any
// request longer than it would fail the task.
const stack = new Stack('compaction', { mockArgs: ['-context-length', String(CONTEXT)] });
before(() => stack.start());
after(() => stack.stop());

test('a small-context conversation compacts, shows the marker, and Show summary opens it', { timeout: 180_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.evaluate(async (n) => {
    const s = await window.go.app.Settings.GetSettings();
    s.contextLengths = { ...(s.contextLengths ?? {}), 'mock-model': n };
    await window.go.app.Settings.SaveSettings(s);
  }, CONTEXT);
  await u.agentMode.uncheck();
  await eventually(async () => assert.equal(await u.agentMode.isEnabled(), true));

  for (const tag of ['first', 'second', 'third']) {
    await sendMessage(page, long(tag));
    await waitForStatus(page, 'Replied');
  }

  const marker = page.getByText('Earlier messages summarised');
  await eventually(async () => assert.ok((await marker.count()) >= 1, 'the marker is shown'), { what: 'the summary marker' });
  const meter = page.getByRole('meter', { name: 'Context' });
  await eventually(async () => {
    assert.equal(await meter.getAttribute('aria-valuemax'), String(CONTEXT));
    const now = Number(await meter.getAttribute('aria-valuenow'));
    assert.ok(now > 0 && now <= CONTEXT, `the meter says ${now}`);
  }, { what: 'the context meter' });

  // The originals stay on screen and in SQLite.
  const items = await transcript(page);
  assert.ok(items.some((i) => i.kind === 'user' && i.text.startsWith('first:')), 'the first message is still shown');
  const list = await page.evaluate(() => window.go.app.Conversations.ListConversations());
  const convs = (list ?? []).filter((c) => c.title.startsWith('first:'));
  assert.equal(convs.length, 1);
  const stored = await loadStored(page, convs[0].id);
  assert.equal(stored.messages.filter((m) => m.role === 'user').length, 3);
  assert.ok(stored.messages.some((m) => m.summaryId), 'the notice names its summary');
  assert.deepEqual(stored.tasks.map((t) => t.status), ['completed', 'completed', 'completed'], 'no request was refused');

  const show = page.getByRole('button', { name: 'Show summary' }).first();
  await show.click();
  const region = page.getByRole('region', { name: 'Summary' });
  await eventually(async () => assert.match((await region.textContent()) ?? '', new RegExp(SUMMARY.slice(0, 30))), {
    what: 'the summary text',
  });

  // Compact now, on demand, adds another marker at the end of the transcript
  // (the list is virtualized: count stored notices, not rendered rows).
  for (const tag of ['fourth', 'fifth']) {
    await sendMessage(page, `${tag} short message`);
    await waitForStatus(page, 'Replied');
  }
  const notices = async () => (await loadStored(page, convs[0].id)).messages.filter((m) => m.summaryId).length;
  /** The transcript's last row, once the list shows its end (the opened summary may have scrolled it away). */
  const lastRow = async () => {
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    if (await jump.isVisible()) await jump.click();
    return (await transcript(page)).at(-1);
  };
  const before = await notices();
  const previous = await lastRow();
  assert.doesNotMatch(previous?.text ?? '', /Earlier messages summarised/, 'the transcript ends with a reply before Compact now');
  await page.getByRole('button', { name: 'Compact now' }).click();
  await eventually(async () => {
    assert.equal(await notices(), before + 1);
    const last = await lastRow();
    assert.match(last?.text ?? '', /Earlier messages summarised/, `the last row: ${JSON.stringify(last)}`);
  }, { what: 'a marker from Compact now' });
}));

// Stop ends a task mid-stream; the transcript stays valid for the next task.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Stack, TIMEOUT } from '../lib/harness.mjs';
import { conversationIdByTitle, countWords, eventually, loadStored, sendMessage, show, slowText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('stop');
before(() => stack.start());
after(() => stack.stop());

test('Stop mid-stream ends the task and the next task still runs', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, '[slow] tell a story');

  // Some words have streamed in (the mock sends one every 50 ms, 400 in all).
  await eventually(
    async () => {
      const n = countWords((await slowText(page)).text);
      assert.ok(n >= 10, `${n} words so far`);
    },
    { what: 'ten streamed words' },
  );
  // The status line stays under the reply as the reply grows, in every
  // frame: checked each time the reply's row is laid out, before it is
  // painted (placed by the rows' measured heights, the status line came a
  // frame late, over the reply's newest line).
  await page.evaluate(() => {
    const row = Array.from(document.querySelectorAll('[role=log] .row-agent')).pop();
    const status = document.querySelector('[role=status]');
    const probe = { layouts: 0, covered: [] };
    window.statusProbe = probe;
    new ResizeObserver(() => {
      probe.layouts++;
      const over = row.getBoundingClientRect().bottom - status.getBoundingClientRect().top;
      if (over > 0.5) probe.covered.push(Math.round(over));
    }).observe(row);
  });
  await eventually(
    async () => {
      const n = countWords((await slowText(page)).text);
      assert.ok(n >= 60, `${n} words so far`);
    },
    { what: 'sixty streamed words: a few more lines' },
  );
  const probe = await page.evaluate(() => window.statusProbe);
  assert.ok(probe.layouts >= 2, `the reply grew by lines (${probe.layouts} layouts)`);
  assert.deepEqual(probe.covered, [], 'pixels of the reply under the status line, in frames where it grew');

  // The status row is as tall stopped as working: the transcript above it
  // does not move (nor is measured again) in the frame that shows Stopped.
  const working = await u.status.boundingBox();
  await u.stop.click();

  await waitForStatus(page, 'Stopped');
  assert.equal((await u.status.boundingBox()).height, working.height, 'the status row kept its height');
  let stopped;
  await eventually(
    async () => {
      const items = await transcript(page);
      const notices = items.filter((i) => i.kind === 'notice').map((i) => i.text.trim());
      assert.deepEqual(notices, ['Stopped by user'], `transcript: ${show(items)}`);
      assert.equal(items.filter((i) => i.kind === 'complete').length, 0, `no Task complete card: ${show(items)}`);
      stopped = await slowText(page);
      assert.equal(stopped.streaming, false, 'the streamed bubble is no longer marked as streaming');
    },
    { what: 'the stopped transcript' },
  );
  const n = countWords(stopped.text);
  assert.ok(n >= 10 && n < 400, `stopped after ${n} of 400 words`);

  // Stop reached the model: the mock saw its stream cut (it would
  // otherwise send a word every 50 ms until the 400th).
  await stack.mock.proc.waitForLine(/^mockmodel: client went away/, TIMEOUT);
  // What the window shows is what Go stored when the task stopped.
  const id = await conversationIdByTitle(page, await u.title.textContent().then((t) => (t ?? '').trim()));
  const storedText = async () => {
    const stored = await loadStored(page, id);
    const hits = (stored.messages ?? []).filter((m) => m.role === 'assistant' && /^\s*word/.test(m.content ?? ''));
    assert.equal(hits.length, 1, `stored: ${JSON.stringify(stored.messages)}`);
    return hits[0].content;
  };
  const stored = await storedText();
  assert.equal(stopped.text.trim(), stored.trim(), 'the window shows what was stored');

  // Nothing more arrives, neither in Go nor in the window: the one fixed
  // wait of the suite, long enough for twenty more words had Stop not cut
  // the stream (proven above).
  await sleep(1_000);
  assert.equal(await storedText(), stored, 'the stored text changed after Stop');
  assert.equal((await slowText(page)).text, stopped.text, 'the streamed text changed after Stop');
  await waitForStatus(page, 'Stopped', { timeout: 1 });

  // The composer is ready again.
  assert.equal(await u.send.isVisible(), true, 'Send is back');
  assert.equal(await u.stop.count(), 0, 'Stop is gone');
  assert.equal(await u.input.isEnabled(), true, 'the input is enabled');

  // What was stored (partial text, the cancelled tool call's closing) is a
  // valid history: the mock answers 400 to a malformed request.
  await sendMessage(page, '[complete] again');
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      const at = items.findIndex((i) => i.kind === 'user' && i.text === '[complete] again');
      assert.ok(at > 0, `transcript: ${show(items)}`);
      assert.deepEqual(
        items.slice(at),
        [
          { kind: 'user', text: '[complete] again' },
          { kind: 'agent', text: 'Working on it.' },
          { kind: 'update', text: 'Halfway there' },
          { kind: 'agent', text: 'All done.' },
          { kind: 'complete', text: 'Finished the e2e task' },
        ],
        `transcript: ${show(items)}`,
      );
      // The stopped part is untouched above it.
      assert.equal((await slowText(page)).text, stopped.text);
    },
    { what: 'the second task to complete' },
  );
}));

// A task runs to completion; what it showed is stored and comes back after a reload.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, openConversation, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const PROMPT = '[complete] write the plan';
const stack = new Stack('complete');
before(() => stack.start());
after(() => stack.stop());

/** What a completed [complete] task shows, in this order. */
const EXPECTED = [
  { kind: 'user', text: PROMPT },
  { kind: 'agent', text: 'Working on it.' },
  { kind: 'update', text: 'Halfway there' },
  { kind: 'agent', text: 'All done.' },
  { kind: 'complete', text: 'Finished the e2e task' },
];

async function assertCompletedTranscript(page) {
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      assert.deepEqual(items, EXPECTED, `transcript: ${show(items)}`);
    },
    { what: 'the completed transcript' },
  );
  const card = ui(page).log.locator('.card-complete');
  assert.match((await card.textContent()) ?? '', /Task complete/);
  await waitForStatus(page, 'Completed');
}

test('a task streams, sends an update and completes; it is all still there after a reload', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  assert.equal(await u.agentMode.isChecked(), true, 'agent mode is on by default');
  await sendMessage(page, PROMPT);

  // The prompt shows at once, then the agent's work streams in.
  await eventually(async () => {
    const items = await transcript(page);
    assert.ok(items.some((i) => i.kind === 'user' && i.text === PROMPT), `no user message: ${show(items)}`);
  });
  await assertCompletedTranscript(page);

  // The composer is ready for the next task.
  await u.send.waitFor({ state: 'visible' });
  assert.equal(await u.input.isEnabled(), true, 'the input is enabled again');
  assert.equal(await u.stop.count(), 0, 'no Stop button after the task ended');
  // The conversation took the prompt as its title, and is not marked as working.
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), PROMPT));
  assert.doesNotMatch((await u.row(PROMPT).textContent()) ?? '', /Working/);

  // Reload: everything comes from the database.
  await stack.open({ reload: true });
  await openConversation(page, PROMPT);
  await assertCompletedTranscript(page);
}));

// A task that fails shows why; Retry carries on the same task from its last
// completed step.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('retry');
before(() => stack.start());
after(() => stack.stop());

test('a failed task: the error is readable, and Retry completes it', { timeout: 120_000 }, stack.test(async (page) => {
  const c = cards(page);
  const u = ui(page);
  await sendMessage(page, '[fail] then recover');
  await waitForStatus(page, 'Failed');
  await c.failed.waitFor({ state: 'visible' });
  assert.match((await c.failed.textContent()) ?? '', /refuses the first request of this prompt/);
  assert.equal(await u.input.isEnabled(), true, 'a failed task does not hold the conversation');

  await c.button(c.failed, 'Retry').click();
  await waitForStatus(page, 'Completed');
  assert.equal(await c.failed.count(), 0, 'the failure card is gone');
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.deepEqual(items.slice(-2), [
      { kind: 'agent', text: 'Recovered.' },
      { kind: 'complete', text: 'Finished after a retry' },
    ], `transcript: ${show(items)}`);
  });
  // It is the same task, not a new one.
  const stored = await page.evaluate(async () => {
    const [conv] = await window.go.app.Conversations.ListConversations();
    return window.go.app.Conversations.LoadConversation(conv.id);
  });
  assert.equal(stored.tasks.length, 1, `tasks: ${JSON.stringify(stored.tasks)}`);
  assert.equal(stored.tasks[0].status, 'completed');
}));

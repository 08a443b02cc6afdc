// Whitespace-only input is not sent; Go refuses it too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, loadStored, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('bad-input');
before(() => stack.start());
after(() => stack.stop());

/** The ids of every conversation Go has. */
async function conversationIds(page) {
  return page.evaluate(async () => {
    const list = await window.go.app.Conversations.ListConversations();
    return list.map((c) => c.id);
  });
}

test('whitespace-only input cannot be sent and stores nothing', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  assert.equal(await u.send.isEnabled(), false, 'Send is disabled with an empty composer');

  await u.input.fill('   \n\t  \n ');
  assert.equal(await u.send.isEnabled(), false, 'Send is disabled with only whitespace');
  // Enter (which sends) does nothing either.
  await u.input.press('End');
  await u.input.press('Enter');
  // Go refuses it as well when asked directly.
  const ids = await conversationIds(page);
  const direct = await page.evaluate(
    async (id) => {
      try {
        const task = await window.go.app.AgentTaskRunner.StartTask(id, ' \n\t ');
        return `accepted: ${JSON.stringify(task)}`;
      } catch (err) {
        return 'refused';
      }
    },
    ids[0],
  );
  assert.equal(direct, 'refused', 'StartTask with only whitespace');

  assert.equal(await u.input.inputValue(), '   \n\t  \n ', 'the draft is left as it was');
  assert.equal(await u.send.isVisible(), true, 'no task started (Send is still there)');
  await waitForStatus(page, 'Ready', { timeout: 1 });
  assert.equal(await page.getByRole('alert').count(), 0, 'no error toast');
  for (const id of ids) {
    const stored = await loadStored(page, id);
    assert.deepEqual(stored.messages, [], `conversation ${id} has messages: ${JSON.stringify(stored.messages)}`);
    assert.deepEqual(stored.tasks, [], `conversation ${id} has tasks: ${JSON.stringify(stored.tasks)}`);
  }

  // A real message afterwards is the first (and only) one: nothing was queued.
  await sendMessage(page, '[complete] real work');
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const items = await transcript(page);
    assert.deepEqual(
      items.filter((i) => i.kind === 'user').map((i) => i.text),
      ['[complete] real work'],
      `transcript: ${show(items)}`,
    );
  });
}));

// The Wails v2 runtime rejects a bound call's promise with new Error(value),
// which once turned Go's {code, message} into "[object Object]";
// app.FormatError now sends it as JSON text, which the frontend parses back.
test('a call Go refuses shows Go\'s reason', { timeout: 60_000 }, stack.test(async (page) => {
  const u = ui(page);
  // Another window deletes every conversation behind this page's back.
  await page.evaluate(async () => {
    for (const c of await window.go.app.Conversations.ListConversations()) {
      await window.go.app.Conversations.DeleteConversation(c.id);
    }
  });
  await u.input.fill('[complete] into the void');
  await u.send.click();
  const alert = page.getByRole('alert').first();
  await alert.waitFor({ state: 'visible' });
  const text = (await alert.textContent()) ?? '';
  assert.match(text, /^Could not send the message/, `toast: ${text}`);
  assert.doesNotMatch(text, /\[object Object\]/, `toast: ${text}`);
  assert.match(text, /no conversation|not found|no longer exists/i, `toast: ${text}`);
  // The toast's own close button does not clash with a task's Dismiss.
  await alert.getByRole('button', { name: 'Close notification' }).click();
  await alert.waitFor({ state: 'detached' });
}));

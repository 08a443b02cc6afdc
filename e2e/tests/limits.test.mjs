// The step limit, set in Settings, pauses a task; Continue lets it finish.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards, waitForWaiting } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, statusText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const TITLE = '[loop] go round';
const stack = new Stack('limits');
before(() => stack.start());
after(() => stack.stop());

test('Settings: set the step limit to 2 and save', { timeout: 60_000 }, stack.test(async (page) => {
  const gear = page.getByRole('button', { name: 'Settings', exact: true });
  await gear.click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const steps = dialog.getByLabel('Step limit', { exact: true });
  await eventually(async () => assert.equal(await steps.inputValue(), '50', 'the default step limit'));
  await steps.fill('2');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await eventually(async () => assert.equal(((await dialog.getByRole('status').textContent()) ?? '').trim(), 'Saved.'));
  const stored = await page.evaluate(() => window.go.app.Settings.GetSettings());
  assert.equal(stored.limits.maxSteps, 2);
  assert.equal(stored.limits.maxMinutes, 30, 'the other limits are unchanged');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await eventually(async () => assert.equal(await gear.evaluate((el) => el === document.activeElement), true, 'focus back on the gear'));
}));

test('a task that reaches the limit pauses; Continue lets it complete', { timeout: 120_000 }, stack.test(async (page, t) => {
  const c = cards(page);
  await sendMessage(page, TITLE);
  const question = 'Limit reached: 2 steps. Continue for 25 more steps, or stop?';
  await waitForWaiting(stack, t, {
    title: TITLE,
    status: 'paused',
    check: async () => {
      await c.pause.waitFor({ state: 'visible', timeout: 2_000 });
      assert.match((await c.pause.textContent()) ?? '', new RegExp(question.replace(/[.?]/g, '\\$&')));
      assert.equal(await statusText(page), 'Paused: step limit reached');
      assert.equal(await ui(page).input.isDisabled(), false, 'a message can be queued while paused');
    },
  });
  // Two steps ran: two updates.
  let items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
  assert.deepEqual(
    items.filter((i) => i.kind === 'update').map((i) => i.text),
    ['Update 1', 'Update 2'],
    `transcript: ${show(items)}`,
  );

  await c.button(c.pause, 'Continue').click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.deepEqual(
      items.filter((i) => i.kind === 'update').map((i) => i.text),
      ['Update 1', 'Update 2', 'Update 3'],
      `transcript: ${show(items)}`,
    );
    assert.deepEqual(items.at(-1), { kind: 'complete', text: 'Finished after 3 updates' }, `transcript: ${show(items)}`);
  });
  assert.equal(await c.pause.count(), 0, 'the pause card is gone');
  const stored = await page.evaluate(async () => {
    const [c] = await window.go.app.Conversations.ListConversations();
    return window.go.app.Conversations.LoadConversation(c.id);
  });
  const task = stored.tasks.at(-1);
  assert.equal(task.stepCount, 4);
  assert.equal(task.limits.maxSteps, 2 + 25, 'Continue raised the limit by 25 steps');
}));

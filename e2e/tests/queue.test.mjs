// A message sent while the agent works is queued, not refused: it shows as
// Queued, reaches the model at the task's next step, and is never lost.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { countWords, eventually, sendMessage, show, slowText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('queue');
before(() => stack.start());
after(() => stack.stop());

/** The delivery label of the person's message that says text ('' for none). */
function label(page, text) {
  return ui(page)
    .log.locator('.row-user', { hasText: text })
    .evaluate((row) => row.querySelector('.delivery-label')?.textContent ?? '');
}

/** Starts a slow task and waits until some of its words have streamed in. */
async function slowTask(page) {
  await page.keyboard.press('Control+N');
  // The new conversation is open before the message is typed (typed
  // sooner, it would stay in the last conversation's draft).
  await eventually(async () => assert.equal((await ui(page).title.textContent())?.trim(), 'New conversation'));
  await sendMessage(page, '[slow] tell a story');
  await eventually(async () => assert.ok(countWords((await slowText(page)).text) >= 5), { what: 'streamed words' });
}

test('a message sent mid-task is Queued, then the task goes on with it', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await slowTask(page);
  await sendMessage(page, 'Keep it short');
  assert.equal(await label(page, 'Keep it short'), 'Queued');
  assert.equal(await u.stop.isVisible(), true, 'the task goes on');

  // The story's bubble, as wide streaming as ended.
  const story = u.log.locator('.row-agent', { hasText: 'word1 ' }).locator('.bubble-agent');
  const streamingWidth = (await story.boundingBox()).width;

  await stack.hurrySlow(); // the rest of the story need not take 20 s
  await waitForStatus(page, 'Completed', { timeout: 60_000 });
  await eventually(async () => assert.ok(await story.locator('..').getByRole('button', { name: 'Copy message' }).count(), 'the ended story has its Copy button'));
  assert.equal((await story.boundingBox()).width, streamingWidth, 'the story kept its width when it ended: its text did not wrap again');
  await eventually(async () => {
    const items = await transcript(page);
    const at = (pred) => items.findIndex(pred);
    const queued = at((i) => i.kind === 'user' && i.text === 'Keep it short');
    assert.ok(queued > at((i) => i.kind === 'agent' && /^\s*word1 /.test(i.text)), `after the slow reply: ${show(items)}`);
    assert.ok(at((i) => i.kind === 'agent' && i.text.includes('Done: Keep it short')) > queued, `the model answered it: ${show(items)}`);
  });
  assert.equal(await label(page, 'Keep it short'), '', 'delivered: no longer Queued');
}));

test('a message still queued when the task is stopped stays, marked Not delivered; Send now has it answered', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await slowTask(page);
  await sendMessage(page, 'Use a poem instead');
  await u.stop.click();
  await waitForStatus(page, 'Stopped');
  await eventually(async () => assert.match(await label(page, 'Use a poem instead'), /^Not delivered/));
  const items = await transcript(page);
  assert.equal(items.at(-1)?.text, 'Use a poem instead', `after the task's end: ${show(items)}`);

  await ui(page).log.locator('.row-user', { hasText: 'Use a poem instead' }).getByRole('button', { name: 'Send now' }).click();
  await waitForStatus(page, 'Completed', { timeout: 60_000 });
  await eventually(async () => {
    const after = await transcript(page);
    assert.ok(after.some((i) => i.kind === 'agent' && i.text.includes('Done: Use a poem instead')), `answered: ${show(after)}`);
    assert.equal(after.filter((i) => i.kind === 'user' && i.text === 'Use a poem instead').length, 1, 'not copied');
  });
  assert.equal(await label(page, 'Use a poem instead'), '', 'delivered: no longer Not delivered');
}));

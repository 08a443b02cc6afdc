// The agent asks a question; the user answers it inline, by a choice button or by typing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import {
  backendActiveTask,
  eventually,
  openConversation,
  reorderedAfterWaiting,
  sendMessage,
  show,
  statusText,
  taskEvents,
  transcript,
  ui,
  waitForStatus,
} from '../lib/ui.mjs';

const TITLE = '[ask] pick a color'; // the conversation takes its first prompt as title
const stack = new Stack('ask');
before(() => stack.start());
after(() => stack.stop());

/** Everything the waiting state shows. */
async function assertWaiting(page) {
  const u = ui(page);
  await waitForStatus(page, 'Waiting for your answer');
  await eventually(
    async () => {
      const items = await transcript(page);
      const q = items.filter((i) => i.kind === 'question');
      assert.ok(q.length >= 1, `no question card: ${show(items)}`);
      assert.equal(q[q.length - 1].text.trim(), 'Which color?');
      // The answer goes where the question is: the composer.
      assert.equal(await u.input.isEnabled(), true, 'the input is enabled while waiting');
      assert.equal(await u.input.getAttribute('placeholder'), 'Which color?');
      assert.equal(await u.reply.isVisible(), true, 'Reply is visible');
      assert.equal(await u.stop.isVisible(), true, 'Stop is visible');
      assert.equal(await u.send.count(), 0, 'Send is replaced by Reply');
      assert.deepEqual(await u.choices.getByRole('button').allTextContents(), ['Red', 'Blue']);
      // Reply is disabled until there is an answer.
      assert.equal(await u.reply.isEnabled(), false, 'Reply is disabled with an empty answer');
      // The sidebar marks the conversation as needing input.
      assert.match((await u.row(TITLE).textContent()) ?? '', /Needs input/);
    },
    { what: 'the waiting state' },
  );
}

/**
 * Starts an [ask] task and checks that the UI waits for the answer. If
 * the dev server delivered a stale task update after waiting_user (see
 * reorderedAfterWaiting), the page shows that stale state until the next
 * event; then the test says so and reloads, and the snapshot must show
 * the waiting state. Without such a reorder, the live UI must get there.
 */
async function askAndWait(page, t, prompt) {
  await sendMessage(page, prompt);
  const task = await eventually(
    async () => {
      const at = await backendActiveTask(page, TITLE);
      assert.equal(at?.status, 'waiting_user', `Go's active task: ${JSON.stringify(at)}`);
      return at;
    },
    { what: 'Go to put the task in waiting_user' },
  );
  // The page hears of it, or of a stale update after it.
  await eventually(async () => {
    const seen = await taskEvents(page, task.id);
    assert.ok(seen.some((e) => e.status === 'waiting_user'), `updates received: ${JSON.stringify(seen)}`);
  });
  await eventually(async () => {
    if (reorderedAfterWaiting(await taskEvents(page, task.id))) return;
    assert.equal(await statusText(page), 'Waiting for your answer');
  });
  try {
    if (reorderedAfterWaiting(await taskEvents(page, task.id))) throw new Error('reordered');
    await assertWaiting(page);
  } catch (err) {
    const seen = await taskEvents(page, task.id);
    if (!reorderedAfterWaiting(seen)) throw err;
    t.diagnostic(
      `the dev server delivered task updates out of order (${seen.map((e) => `${e.status} (step ${e.step})`).join(' → ')}); ` +
        `the page showed "${await statusText(page)}"; reloading`,
    );
    await stack.open({ reload: true });
    await openConversation(page, TITLE);
    await assertWaiting(page);
  }
}

async function assertAnswered(page, answer, completedTasks) {
  const u = ui(page);
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      assert.deepEqual(
        items.slice(-4),
        [
          { kind: 'question', text: 'Which color?' },
          { kind: 'answer', text: answer },
          { kind: 'agent', text: `You chose ${answer}.` },
          { kind: 'complete', text: `Color chosen: ${answer}` },
        ],
        `transcript: ${show(items)}`,
      );
      assert.equal(items.filter((i) => i.kind === 'complete').length, completedTasks, `transcript: ${show(items)}`);
      assert.equal(await u.choices.count(), 0, 'the choice buttons are gone');
      assert.equal(await u.reply.count(), 0, 'Reply is gone');
      assert.equal(await u.send.isVisible(), true, 'Send is back');
      assert.doesNotMatch((await u.row(TITLE).textContent()) ?? '', /Needs input/);
    },
    { what: `"You chose ${answer}." and the completion` },
  );
}

test('answer a question with a choice button', { timeout: 120_000 }, stack.test(async (page, t) => {
  await askAndWait(page, t, TITLE);
  await ui(page).choices.getByRole('button', { name: 'Blue', exact: true }).click();
  await assertAnswered(page, 'Blue', 1);
}));

test('answer a question by typing and pressing Reply', { timeout: 120_000 }, stack.test(async (page, t) => {
  const u = ui(page);
  await askAndWait(page, t, '[ask] pick another color');
  await u.input.fill('Red');
  await u.reply.click();
  await assertAnswered(page, 'Red', 2);
  assert.equal(await u.input.inputValue(), '', 'the answer was taken out of the composer');
}));

// Nothing lost, nothing repeated: Errand is killed while a task waits for
// an answer, or while it works, and started again on the same data folder.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import {
  backendActiveTask,
  countWords,
  eventually,
  openConversation,
  sendMessage,
  show,
  slowText,
  transcript,
  ui,
  waitForStatus,
} from '../lib/ui.mjs';

const stack = new Stack('restart');
before(() => stack.start());
after(() => stack.stop());

test('a question survives a crash: asked again after restart, answered, completed', { timeout: 120_000 }, stack.test(async (page) => {
  const TITLE = '[ask] before the crash';
  const u = ui(page);
  await sendMessage(page, TITLE);
  await eventually(async () => {
    const at = await backendActiveTask(page, TITLE);
    assert.equal(at?.status, 'waiting_user', `Go's active task: ${JSON.stringify(at)}`);
  });

  await stack.restartApp({ signal: 'SIGKILL' });
  await openConversation(page, TITLE);

  await waitForStatus(page, 'Waiting for your answer');
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    const questions = items.filter((i) => i.kind === 'question');
    assert.deepEqual(questions, [{ kind: 'question', text: 'Which color?' }], `transcript: ${show(items)}`);
    assert.deepEqual(await u.choices.getByRole('button').allTextContents(), ['Red', 'Blue']);
    assert.equal(await u.input.getAttribute('placeholder'), 'Which color?');
  });

  await u.choices.getByRole('button', { name: 'Blue', exact: true }).click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.deepEqual(
      items.slice(-4),
      [
        { kind: 'question', text: 'Which color?' },
        { kind: 'answer', text: 'Blue' },
        { kind: 'agent', text: 'You chose Blue.' },
        { kind: 'complete', text: 'Color chosen: Blue' },
      ],
      `transcript: ${show(items)}`,
    );
    assert.equal(items.filter((i) => i.kind === 'question').length, 1, 'the question was not asked twice');
  });
}));

test('a task cut off by a crash is interrupted; Dismiss frees the conversation', { timeout: 120_000 }, stack.test(async (page) => {
  const TITLE = '[slow] cut off';
  const u = ui(page);
  const c = cards(page);
  await u.newConversation.click();
  // Type only once the new conversation is open (else the text goes to the old one).
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'));
  await sendMessage(page, TITLE);
  await eventually(async () => assert.ok(countWords((await slowText(page)).text) >= 5, 'streaming'), {
    what: 'some streamed words',
  });

  await stack.restartApp({ signal: 'SIGKILL' });
  await openConversation(page, TITLE);

  await waitForStatus(page, 'Interrupted');
  await c.interrupted.waitFor({ state: 'visible' });
  assert.match((await c.interrupted.textContent()) ?? '', /Interrupted when Errand closed/);
  assert.equal(await c.button(c.interrupted, 'Resume').isVisible(), true);
  // The interrupted task holds the conversation: the composer says so.
  assert.equal(await u.input.isDisabled(), true);
  assert.match((await u.input.getAttribute('placeholder')) ?? '', /Resume or dismiss the interrupted task/);
  await eventually(async () => {
    const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
    assert.ok(items.some((i) => i.kind === 'notice' && i.text === 'Interrupted when Errand closed'), `transcript: ${show(items)}`);
  });

  await c.button(c.interrupted, 'Dismiss').click();
  await waitForStatus(page, 'Stopped');
  assert.equal(await c.interrupted.count(), 0);
  assert.equal(await u.input.isEnabled(), true);
  await sendMessage(page, '[complete] after dismissing');
  await waitForStatus(page, 'Completed');
}));

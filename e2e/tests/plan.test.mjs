// Plan, execute, reflect, and the mode of each message: the plan checklist
// fills in live and survives a reload; a reflection that finds an unmet
// criterion sends the task on; in Auto a question is answered directly, a
// file request runs as a task, "Run as a task instead" re-runs it, and
// /task forces a task.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, newConversation, openConversation, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const PLAN = '[plan] compare three laptops'; // the conversation's title
const stack = new Stack('plan', { mode: 'auto' });
before(() => stack.start());
after(() => stack.stop());

const plan = (page) => page.getByRole('region', { name: 'Plan' });
const planHead = (page) => plan(page).getByRole('button', { name: /^Plan · / });

async function decisions(page) {
  return (await transcript(page)).filter((i) => i.kind === 'decision').map((i) => i.text.trim());
}

test('the plan checklist fills in live, shows on the list row, and survives a reload', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.getByRole('radiogroup', { name: 'Mode' }).getByRole('radio', { name: 'Agent', exact: true }).check();
  await sendMessage(page, PLAN);
  await waitForStatus(page, 'Waiting for your answer');
  await eventually(async () => {
    assert.match((await planHead(page).textContent()) ?? '', /Plan · 1 of 3/);
    assert.deepEqual(
      await plan(page).getByRole('listitem').allTextContents(),
      ['✓Gather the facts, done', '◐Draft the answer, in progress', '○Check the answer, to do'],
    );
  }, { what: 'the second revision of the plan' });
  await eventually(async () => assert.match((await u.row(PLAN).textContent()) ?? '', /Plan · 1 of 3 · Draft the answer/));

  await stack.open({ reload: true });
  await openConversation(page, PLAN);
  await eventually(async () => assert.match((await planHead(page).textContent()) ?? '', /Plan · 1 of 3/), { what: 'the plan after a reload' });

  await u.choices.getByRole('button', { name: 'Yes' }).click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => assert.match((await planHead(page).textContent()) ?? '', /Plan · 3 of 3/));
  assert.doesNotMatch((await u.row(PLAN).textContent()) ?? '', /Plan ·/, 'the row shows the plan only while the task runs');
  // Once the task has ended the plan folds to one line; Plan history opens every revision with what changed.
  await eventually(async () => assert.equal(await planHead(page).getAttribute('aria-expanded'), 'false'), { what: 'the ended plan folded' });
  await plan(page).getByRole('button', { name: 'Plan history', exact: true }).click();
  const history = page.getByRole('dialog', { name: 'Plan history' });
  await eventually(async () => {
    assert.match((await history.getByRole('list', { name: 'What changed in revision 1' }).textContent()) ?? '', /The first plan\./);
    assert.match((await history.getByRole('list', { name: 'What changed in revision 2' }).textContent()) ?? '', /→/);
  }, { what: 'the revisions and their changes' });
  await fs.mkdir('artifacts', { recursive: true });
  await page.screenshot({ path: 'artifacts/plan-history.png' });
  await history.getByRole('button', { name: 'Close', exact: true }).click();
  await eventually(async () => {
    const items = await transcript(page);
    assert.ok(items.some((i) => i.kind === 'tool' && /reflect/.test(i.text)), `the reflection is in the transcript: ${show(items)}`);
  });

  await stack.open({ reload: true });
  await openConversation(page, PLAN);
  await eventually(async () => assert.match((await planHead(page).textContent()) ?? '', /Plan · 3 of 3/), { what: 'the finished plan after a reload' });
}));

test('a reflection that finds an unmet criterion sends the task on; the next lets it complete', { timeout: 120_000 }, stack.test(async (page) => {
  await newConversation(page);
  await sendMessage(page, '/task [reflect] write the report');
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const items = await transcript(page);
    const reflections = items.filter((i) => i.kind === 'tool' && /reflect/.test(i.text));
    assert.equal(reflections.length, 2, `two reflections: ${show(items)}`);
    // Only the accepted completion is a Task complete card; the attempt
    // the check found unmet is a line saying so.
    const done = items.filter((i) => i.kind === 'complete').map((i) => i.text.trim());
    assert.deepEqual(done, ['Added the title'], `the task went on after the first: ${show(items)}`);
    assert.ok(items.some((i) => /Not complete yet: the check of the result found more to do/.test(i.text)), show(items));
    assert.match((await planHead(page).textContent()) ?? '', /Plan · 1 of 1/);
  }, { what: 'both reflections and the one accepted completion' });
  const [row] = await page.getByRole('log', { name: 'Conversation' }).locator('.tool-row').filter({ hasText: 'reflect' }).all();
  await row.click();
  await eventually(async () => assert.match((await row.textContent()) ?? '', /the report has no title/), { what: 'the first reflection\'s issue' });

  // The checklist, the Mode control and a decision line together, for a look.
  await fs.mkdir('artifacts', { recursive: true });
  await page.screenshot({ path: 'artifacts/plan-mode.png' });
}));

test('Auto answers a question directly and runs a file request as a task; a click re-runs the other way; /task forces a task', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await newConversation(page);
  assert.equal(await page.getByRole('radio', { name: 'Auto', exact: true }).isChecked(), true, 'Auto is the default mode');

  await sendMessage(page, 'What is the capital of France?');
  await waitForStatus(page, 'Replied');
  await eventually(async () => assert.deepEqual(await decisions(page), ['Answered directly · Run as a task instead']));

  await page.getByRole('button', { name: 'Run as a task instead' }).click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    assert.deepEqual(await decisions(page), ['Working on it as a task · Just answer instead']);
    const items = await transcript(page);
    assert.equal(items.filter((i) => i.kind === 'user').length, 1, `the question is shown once: ${show(items)}`);
    assert.ok(items.some((i) => i.kind === 'complete'), `the re-run ran as a task: ${show(items)}`);
  }, { what: 'the re-run as a task' });
  // The re-run is the message's second version; the direct answer is the first.
  const versions = page.getByRole('group', { name: 'Versions' }).first();
  await eventually(async () => assert.match((await versions.textContent()) ?? '', /2\/2/));
  await versions.getByRole('button', { name: 'Previous version' }).click();
  await eventually(async () => assert.deepEqual(await decisions(page), ['Answered directly · Run as a task instead']), { what: 'the first version back' });
  await page.getByRole('group', { name: 'Versions' }).first().getByRole('button', { name: 'Next version' }).click();
  await eventually(async () => assert.deepEqual(await decisions(page), ['Working on it as a task · Just answer instead']));

  await newConversation(page);
  await sendMessage(page, 'Create a file notes.txt in my workspace with a todo list for the week');
  await waitForStatus(page, 'Completed');
  await eventually(async () => assert.deepEqual(await decisions(page), ['Working on it as a task · Just answer instead']));

  await newConversation(page);
  await u.input.fill('/task');
  await u.send.click();
  const alert = page.getByRole('alert').first();
  await alert.waitFor({ state: 'visible' });
  assert.match((await alert.textContent()) ?? '', /\/task needs a message after it/);
  assert.equal(await u.input.inputValue(), '/task', 'the text is kept');
  await alert.getByRole('button', { name: 'Close notification' }).click();

  await u.input.fill('/task hello');
  await u.send.click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    assert.deepEqual(await decisions(page), ['Working on it as a task (/task) · Just answer instead']);
    const items = await transcript(page);
    assert.deepEqual(items.filter((i) => i.kind === 'user').map((i) => i.text.trim()), ['hello'], `the command is not part of the message: ${show(items)}`);
  });

  // The re-run conversation, for a look.
  await openConversation(page, 'What is the capital of France?');
  await eventually(async () => assert.equal((await decisions(page)).length, 1));
  await page.screenshot({ path: 'artifacts/plan-auto.png' });
}));

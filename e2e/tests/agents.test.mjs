// Agents: one made in Settings → Agents with only read_file drives the
// request (its tools and instructions, as the mock model reports them); a
// proactive one speaks first with a form whose wrong answer shows Go's error
// at the form and whose right one reaches the model as JSON, while the
// composer stays disabled as the agent asked.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, Stack } from '../lib/harness.mjs';
import { eventually, newConversation, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('agents');
before(() => stack.start());
after(() => stack.stop());

/** With ERRAND_E2E_README_SHOTS=1, the README's screenshots (docs/screenshot-agents-NAME.png). */
async function shot(page, name, target) {
  if (!process.env.ERRAND_E2E_README_SHOTS) return;
  await page.waitForTimeout(200); // let the last paint settle before the picture
  await target.screenshot({ path: path.join(ROOT, 'docs', `screenshot-agents-${name}.png`) });
}

function waitForAgentText(page, re) {
  return eventually(
    async () => {
      const items = await transcript(page);
      assert.ok(items.some((i) => i.kind === 'agent' && re.test(i.text)), `no agent message ${re}: ${show(items)}`);
    },
    { what: `the reply ${re}` },
  );
}

async function openAgentsSettings(page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('region', { name: 'Agents' });
  await section.getByRole('heading', { name: 'Agents', exact: true }).waitFor();
  return { dialog, section };
}

/** Fills the New agent form and saves it. */
async function createAgent(page, { name, instructions, tools = [], proactive = false }) {
  const { dialog, section } = await openAgentsSettings(page);
  await section.getByRole('button', { name: 'New agent', exact: true }).click();
  const form = section.getByRole('form', { name: 'New agent' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Instructions' }).fill(instructions);
  for (const t of tools) await form.getByRole('checkbox', { name: t, exact: true }).check();
  if (proactive) {
    await form.getByRole('combobox', { name: 'Chat mode' }).selectOption('proactive');
    await form.getByRole('checkbox', { name: 'You can type while it waits' }).uncheck();
    await form.getByRole('checkbox', { name: 'Show “End conversation”' }).check();
  }
  return { dialog, section, form };
}

test('an agent with only read_file: the model sees only it, the control tools and its instructions', { timeout: 120_000 }, stack.test(async (page) => {
  const { dialog, section, form } = await createAgent(page, {
    name: '',
    instructions: 'You are Reader. Read files, never write them.',
    tools: ['read_file'],
  });
  // Bad input: an empty name is refused, and nothing is saved.
  await form.getByRole('button', { name: 'Save agent' }).click();
  await eventually(async () => assert.match((await form.getByRole('alert').textContent()) ?? '', /needs a name/));
  assert.equal(await section.getByRole('button', { name: 'Edit Reader' }).count(), 0);

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Reader');
  await form.getByRole('button', { name: 'Save agent' }).click();
  await section.getByRole('button', { name: 'Edit Reader' }).waitFor();
  await section.getByRole('button', { name: 'Edit Reader' }).click();
  await shot(page, 'settings', dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const u = ui(page);
  await newConversation(page); // the picker used before then is the last conversation's
  const picker = page.getByRole('combobox', { name: 'Agent', exact: true });
  await eventually(async () => assert.equal(await picker.inputValue(), 'errand', 'a new conversation talks to Errand'));
  await picker.selectOption({ label: 'Reader' });
  await eventually(async () => assert.equal(await picker.inputValue(), 'reader'));
  await sendMessage(page, '[tools] what can you use?');
  await waitForAgentText(
    page,
    /^Tools: ask_user, forget, read_file, remember, send_update, task_complete, update_plan \| Instructions: You are Reader\. Read files, never write them\.$/,
  );
  await waitForStatus(page, 'Completed');
  await shot(page, 'picker', page.locator('.chat'));

  // The list shows each conversation's agent and filters by it (beside a
  // conversation with Errand).
  await eventually(async () => assert.match((await u.row('[tools] what can you use?').textContent()) ?? '', /Reader/));
  await u.newConversation.click();
  await eventually(async () => assert.equal(await picker.inputValue(), 'errand'));
  await sendMessage(page, '[tools] and Errand?');
  await waitForStatus(page, 'Completed');
  await eventually(async () => assert.equal(await u.convList.getByRole('listitem').count(), 2));
  await page.getByRole('combobox', { name: 'Filter conversations' }).selectOption({ label: 'Reader' });
  await eventually(async () => assert.equal(await u.convList.getByRole('listitem').count(), 1, 'only Reader’s conversation'));
  await page.getByRole('combobox', { name: 'Filter conversations' }).selectOption({ label: 'All agents' });
  await eventually(async () => assert.equal(await u.convList.getByRole('listitem').count(), 2));
}));

test('a proactive agent speaks first with a form; a wrong answer shows its error, the right one reaches the model as JSON', { timeout: 120_000 }, stack.test(async (page) => {
  const { dialog, form } = await createAgent(page, {
    name: 'Form agent',
    instructions: 'You are the form agent [form-agent]. Collect the person’s details.',
    proactive: true,
  });
  await form.getByRole('button', { name: 'Save agent' }).click();
  await dialog.getByRole('region', { name: 'Agents' }).getByRole('button', { name: 'Edit Form agent' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const u = ui(page);
  await newConversation(page);
  await page.getByRole('combobox', { name: 'Agent', exact: true }).selectOption({ label: 'Form agent · speaks first' });
  // It speaks first: nobody typed anything.
  const details = page.getByRole('group', { name: 'Your details' });
  await details.waitFor({ timeout: 15_000 });
  await waitForAgentText(page, /^Hello from the form agent\.$/);
  assert.ok(!(await transcript(page)).some((i) => i.kind === 'user'), 'no message from the person');
  // The composer follows the agent: disabled, with its placeholder; End conversation instead of Stop.
  await eventually(async () => {
    assert.equal(await u.input.isDisabled(), true, 'the input is disabled while the agent says so');
    assert.equal(await u.input.getAttribute('placeholder'), 'Fill in the form');
    assert.equal(await page.getByRole('button', { name: 'End conversation' }).count(), 1);
  });
  await details.getByRole('spinbutton', { name: 'Age' }).fill('41');
  await details.getByRole('button', { name: 'Submit' }).click();
  await eventually(async () => assert.equal((await details.getByRole('alert').textContent())?.trim(), 'Name is required'));
  assert.equal(await u.input.isDisabled(), true);
  await shot(page, 'form', page.locator('.card-question').last());
  await shot(page, 'proactive', page.locator('.chat'));

  await details.getByRole('textbox', { name: 'Name' }).fill('Ann');
  await details.getByRole('button', { name: 'Submit' }).click();
  await waitForAgentText(page, /^Got: \{"name":"Ann","age":41\}$/);
  await waitForStatus(page, 'Completed');
  // The person's answer shows as the form's labelled fields, not as the JSON the model got.
  const answer = u.log.locator('.bubble-answer').last();
  assert.deepEqual(await answer.getByRole('term').allTextContents(), ['Name', 'Age']);
  assert.deepEqual(await answer.getByRole('definition').allTextContents(), ['Ann', '41']);
  assert.doesNotMatch((await answer.textContent()) ?? '', /\{"name"/);
  assert.equal(await u.input.isEnabled(), true, 'the composer opens again once the task is done');
}));

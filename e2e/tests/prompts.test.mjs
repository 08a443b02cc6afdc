// Saved prompts: a message saved with "Save as prompt" is offered by the
// composer's "/" menu in a new conversation, picked with the arrow keys,
// and its text is what the model receives.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('prompts');
before(() => stack.start());
after(() => stack.stop());

const TEXT = 'Summarise the meeting notes in three bullet points';

/** A screenshot for a person to look at, when ERRAND_E2E_SHOTS names a folder. */
async function shot(page, name) {
  const dir = process.env.ERRAND_E2E_SHOTS;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** The user messages of every chat request the scripted model server was sent so far. */
async function userTexts() {
  const res = await fetch(`${stack.mock.baseURL.replace(/\/v1$/, '')}/mock/requests`);
  assert.equal(res.status, 200);
  const bodies = (await res.json()).map((b) => JSON.parse(b));
  return bodies.flatMap((b) => (b.messages ?? []).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content)));
}

function waitForAgentText(page, text) {
  return eventually(
    async () => {
      const items = await transcript(page);
      assert.ok(items.some((i) => i.kind === 'agent' && i.text.trim() === text), `no agent message ${JSON.stringify(text)}: ${show(items)}`);
    },
    { what: `the reply ${text}` },
  );
}

test('a message saved as a prompt is picked from the / menu with the arrows and sent', { timeout: 150_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, TEXT);
  await waitForAgentText(page, `Done: ${TEXT}`);
  await waitForStatus(page, 'Completed');

  // Save it as a prompt; an empty name is refused at its field, and nothing is saved.
  await u.log.getByRole('button', { name: 'Save as prompt' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Save as prompt' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  assert.equal(await dialog.getByRole('textbox', { name: 'Text' }).inputValue(), TEXT);
  await name.fill('  ');
  await dialog.getByRole('button', { name: 'Save prompt' }).click();
  await eventually(async () => assert.match((await dialog.getByRole('alert').textContent()) ?? '', /needs a name/));
  assert.equal(await name.getAttribute('aria-invalid'), 'true');
  await name.fill('Meeting notes');
  await shot(page, 'prompts-save');
  await dialog.getByRole('button', { name: 'Save prompt' }).click();
  await dialog.waitFor({ state: 'detached' });

  // A new conversation: "/" lists it with /task and /chat; the arrows choose.
  await u.newConversation.click();
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'));
  await u.input.click();
  await page.keyboard.type('/');
  const menu = page.getByRole('listbox', { name: 'Saved prompts and commands' });
  await menu.waitFor();
  const options = menu.getByRole('option');
  await eventually(async () =>
    assert.deepEqual(
      (await options.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()),
      [`Meeting notes${TEXT}`, '/taskWork on this message as a task', '/chatAnswer this message directly'],
    ),
  );
  const selected = async () => (await menu.getByRole('option', { selected: true }).textContent()) ?? '';
  assert.match(await selected(), /^Meeting notes/);
  await page.keyboard.press('ArrowDown');
  assert.match(await selected(), /^\/task/);
  await page.keyboard.press('ArrowDown');
  assert.match(await selected(), /^\/chat/);
  await page.keyboard.press('ArrowDown');
  assert.match(await selected(), /^Meeting notes/, 'the arrows wrap around');
  await shot(page, 'prompts-menu');
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'detached' });
  assert.equal(await u.input.inputValue(), TEXT);

  // Enter sends it: the model receives its text.
  const before = (await userTexts()).length;
  await page.keyboard.press('Enter');
  await waitForAgentText(page, `Done: ${TEXT}`);
  await eventually(async () => {
    const sent = (await userTexts()).slice(before);
    assert.ok(sent.some((t) => t.includes(TEXT)), `the model was not sent the prompt: ${sent.join(' | ')}`);
  });
}));

test('Settings → Prompts renames a prompt, refuses a duplicate name, and deletes after asking', { timeout: 120_000 }, stack.test(async (page) => {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const section = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'Prompts' });
  await section.getByRole('button', { name: 'New prompt' }).click();
  await section.getByRole('textbox', { name: 'Name' }).fill('Second');
  await section.getByRole('textbox', { name: 'Text' }).fill('Another text');
  await section.getByRole('button', { name: 'Save prompt' }).click();
  const second = section.getByRole('listitem', { name: 'Second' });
  await second.waitFor();

  await second.getByRole('button', { name: 'Edit Second' }).click();
  await second.getByRole('textbox', { name: 'Name' }).fill('meeting NOTES');
  await second.getByRole('button', { name: 'Save prompt' }).click();
  await eventually(async () => assert.match((await second.getByRole('alert').textContent()) ?? '', /already a prompt named/));
  await second.getByRole('textbox', { name: 'Name' }).fill('Renamed');
  await second.getByRole('button', { name: 'Save prompt' }).click();
  const renamed = section.getByRole('listitem', { name: 'Renamed' });
  await renamed.waitFor();

  await renamed.getByRole('button', { name: 'Delete Renamed' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete the prompt Renamed?' });
  await ask.getByRole('button', { name: 'Delete prompt' }).click();
  await renamed.waitFor({ state: 'detached' });
  await section.getByRole('listitem', { name: 'Meeting notes' }).waitFor();
}));

// Thinking models. The demo model thinks before each reply; then a
// provider is connected in Settings to the mock, in DeepSeek's thinking
// mode (-thinking), whose [think] reasons for a few seconds before a tool
// call: the reply shows a live "Thinking" block, folded to "Thought for N s"
// once the model acts, above a clean answer (the next step, which the mock
// answers only if the reasoning came back with the tool call). The block
// survives a reload, Show thinking hides it, and the Reasoning effort beside
// the model reaches the model.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, Stack } from '../lib/harness.mjs';
import { eventually, newConversation, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('thinking', { env: false, mockArgs: ['-thinking'] });
before(() => stack.start());
after(() => stack.stop());

const PROMPT = 'What is the sum of the first ten odd numbers? [think]';
/** Words of the mock's reasoning (mockmodel/script.go), which the answer must not hold. */
const REASONING = /five pairs of 20/;
const ANSWER = 'The sum of the first ten odd numbers is 100.';
const FOLDED = /^Thought for \d+ s$/;

/** With ERRAND_E2E_README_SHOTS=1, the README's docs/screenshot-thinking.png. */
async function shot(page, target) {
  if (!process.env.ERRAND_E2E_README_SHOTS) return;
  await page.mouse.move(0, 0); // no hover on the toggle just clicked
  await page.waitForTimeout(200); // let the last paint settle before the picture
  await target.screenshot({ path: path.join(ROOT, 'docs', 'screenshot-thinking.png') });
}

/** The transcript's thinking blocks, by their buttons. */
function blocks(page) {
  const log = ui(page).log;
  return {
    live: log.getByRole('button', { name: 'Thinking', exact: true }),
    folded: log.getByRole('button', { name: FOLDED }),
    region: log.getByRole('region', { name: 'Thinking', exact: true }),
  };
}

async function openSettings(page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.waitFor({ state: 'visible' });
  return {
    dialog,
    provider: dialog.getByRole('group', { name: 'Model provider' }),
    save: dialog.getByRole('button', { name: 'Save', exact: true }),
    status: dialog.locator('.settings-foot').getByRole('status', { includeHidden: true }),
    showThinking: dialog.getByRole('region', { name: 'Thinking' }).getByRole('switch', { name: 'Show thinking' }),
  };
}

async function closeSettings(page, dialog) {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** The agent bubbles' texts, trimmed. */
async function agentTexts(page) {
  return (await transcript(page)).filter((i) => i.kind === 'agent').map((i) => i.text.trim());
}

/** Sends a [think] task and waits until it completed with its answer. */
async function runThinkTask(page, prompt, answer) {
  await sendMessage(page, prompt);
  await blocks(page).live.waitFor({ state: 'visible', timeout: 30_000 });
  await stack.hurrySlow(); // the reasoning streams: the rest need not take seconds
  await waitForStatus(page, 'Completed', { timeout: 60_000 });
  await eventually(async () => {
    const items = await transcript(page);
    assert.equal(items.filter((i) => i.kind === 'agent').at(-1)?.text.trim(), answer, `transcript: ${show(items)}`);
  }, { what: 'the answer' });
}

test('the demo model thinks: its reply shows "Thought for N s"', { timeout: 90_000 }, stack.test(async (page) => {
  await page.getByRole('button', { name: 'Demo model', exact: true }).waitFor({ state: 'visible' });
  await sendMessage(page, 'Plan a picnic');
  // The demo asks how to answer, then answers: each step thought first.
  await waitForStatus(page, 'Waiting for your answer', { timeout: 60_000 });
  await ui(page).choices.getByRole('button').first().click();
  await waitForStatus(page, 'Completed', { timeout: 60_000 });
  const b = blocks(page);
  await eventually(async () => assert.ok((await b.folded.count()) >= 1, 'a folded thinking block'));
  await b.folded.first().click();
  await eventually(async () => assert.notEqual(((await b.region.first().textContent()) ?? '').trim(), '', 'the demo thought something'));
}));

test('a thinking model: live while it thinks, folded above a clean answer, open on a click, kept after a reload', { timeout: 180_000 }, stack.test(async (page) => {
  // Connect the mock (no key needed) as a custom provider.
  const s = await openSettings(page);
  await s.provider.getByRole('radio', { name: 'Custom', exact: true }).check();
  await s.provider.getByRole('textbox', { name: 'Base URL', exact: true }).fill(stack.mock.baseURL);
  await s.provider.getByRole('combobox', { name: 'Model', exact: true }).fill('mock-model');
  await s.save.click();
  await eventually(async () => assert.equal(((await s.status.textContent()) ?? '').trim(), 'Saved. New tasks use mock-model.'));
  await closeSettings(page, s.dialog);

  const u = ui(page);
  // Typed only once the new conversation is open (else the text is the last one's draft).
  await newConversation(page);
  await eventually(async () => assert.equal(await u.input.inputValue(), ''));
  const b = blocks(page);
  await sendMessage(page, PROMPT);
  // While the model thinks: a live block named "Thinking", open, its reasoning streaming in.
  await b.live.waitFor({ state: 'visible', timeout: 30_000 });
  await eventually(async () => assert.match((await b.region.textContent()) ?? '', /sum of the first ten odd numbers/));
  await stack.hurrySlow(); // seen live: the rest of the reasoning need not take seconds

  await waitForStatus(page, 'Completed', { timeout: 60_000 });
  // Once it acted: folded to "Thought for N s", above a clean answer.
  await b.folded.waitFor({ state: 'visible' });
  assert.equal(await b.folded.count(), 1, 'one thinking block');
  assert.equal(await b.live.count(), 0, 'no live block left');
  assert.equal(await b.region.count(), 0, 'folded');
  const answers = await agentTexts(page);
  assert.deepEqual(answers, [ANSWER], 'the answer alone, with no reasoning effort asked for');
  // The mock answers the second step only if the reasoning came back with the tool call.
  assert.deepEqual(stack.mock.proc.lines.filter((l) => /rejected/.test(l)), [], 'no request refused');
  const log = (await u.log.textContent()) ?? '';
  assert.doesNotMatch(log, REASONING, 'the reasoning is not shown while folded');
  assert.doesNotMatch(log, /<\/?think>/);

  // A click opens it: the reasoning, in the region named "Thinking".
  await b.folded.click();
  await eventually(async () => assert.match((await b.region.textContent()) ?? '', REASONING));
  assert.equal(await b.folded.getAttribute('aria-expanded'), 'true');
  for (const text of await agentTexts(page)) assert.doesNotMatch(text, REASONING, 'the answer bubble holds no reasoning');
  await shot(page, page.locator('.chat'));

  // Stored with the message: a reload shows it folded again, and it opens.
  await stack.open({ reload: true });
  await b.folded.waitFor({ state: 'visible' });
  assert.deepEqual(await agentTexts(page), [ANSWER]);
  await b.folded.click();
  await eventually(async () => assert.match((await b.region.textContent()) ?? '', REASONING));
}));

test('Settings: Show thinking off hides the blocks, on shows them again', { timeout: 60_000 }, stack.test(async (page) => {
  const b = blocks(page);
  await b.folded.waitFor({ state: 'visible' });
  let s = await openSettings(page);
  await eventually(async () => assert.equal(await s.showThinking.isChecked(), true, 'shown by default'));
  await s.showThinking.click();
  await eventually(async () => assert.equal(await s.showThinking.isChecked(), false));
  await closeSettings(page, s.dialog);
  await eventually(async () => assert.equal(await b.folded.count(), 0, 'the block is hidden'));
  assert.deepEqual(await agentTexts(page), [ANSWER], 'the answer stays');

  s = await openSettings(page);
  await eventually(async () => assert.equal(await s.showThinking.isChecked(), false, 'kept off'));
  await s.showThinking.click();
  await eventually(async () => assert.equal(await s.showThinking.isChecked(), true));
  await closeSettings(page, s.dialog);
  await b.folded.waitFor({ state: 'visible' });
}));

test('Settings: Reasoning effort High for the model reaches it as reasoning_effort "high"', { timeout: 120_000 }, stack.test(async (page) => {
  const s = await openSettings(page);
  const effort = s.provider.getByRole('combobox', { name: 'Reasoning effort', exact: true });
  await eventually(async () => assert.equal(await effort.inputValue(), '', 'Default'));
  assert.deepEqual(await effort.getByRole('option').allTextContents(), ['Default', 'Low', 'Medium', 'High']);
  assert.equal(await s.dialog.getByRole('combobox', { name: /reasoning effort/i }).count(), 1, 'one effort control');
  await effort.selectOption({ label: 'High' });
  await s.save.click();
  await eventually(async () => assert.equal(((await s.status.textContent()) ?? '').trim(), 'Saved.'));
  const stored = await page.evaluate(() => window.go.app.Settings.GetSettings());
  assert.deepEqual(stored.reasoningEffort, { 'mock-model': 'high' });
  await closeSettings(page, s.dialog);

  // The mock says which effort its request asked for.
  await runThinkTask(page, 'Once more, the sum of the first ten odd numbers. [think]', `${ANSWER} (Reasoning effort: high.)`);
}));

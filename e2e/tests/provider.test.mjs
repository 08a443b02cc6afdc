// First run without any model configured: the app is on its demo model and
// says so; a person connects a custom OpenAI-compatible provider (the
// mock, which wants a key) in Settings, tests it — every verdict a person
// can meet — picks a model, saves, and runs a task on it. The key ends up
// only in the 0600 key file (no keyring under Xvfb), never in the
// database, a log or the page.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freePort, Stack } from '../lib/harness.mjs';
import { eventually, loadStored, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const KEY = 'sk-e2e-provider-3f9a7c1d';
const WRONG_KEY = 'sk-e2e-wrong-5b2e8d40';
const MODELS = ['mock-model', 'mock-large'];
const stack = new Stack('provider', { env: false, mockArgs: ['-models', MODELS.join(','), '-api-key', KEY] });
before(() => stack.start());
after(() => stack.stop());

/** Screenshots for a person to look at, light and dark, when ERRAND_E2E_SHOTS names a folder. */
async function shot(page, name, target = page) {
  const dir = process.env.ERRAND_E2E_SHOTS;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await target.screenshot({ path: path.join(dir, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: null });
}

function settings(page) {
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('group', { name: 'Model provider' });
  return {
    dialog,
    section,
    radio: (name) => section.getByRole('radio', { name, exact: true }),
    baseUrl: section.getByRole('textbox', { name: 'Base URL', exact: true }),
    // (Once a key is saved, "API key" names the group that says so.)
    apiKey: section.getByLabel('API key', { exact: true }).and(page.locator('input')),
    model: section.getByRole('combobox', { name: 'Model', exact: true }),
    test: section.getByRole('button', { name: 'Test connection', exact: true }),
    // One Save for the whole dialog, at its bottom.
    save: dialog.getByRole('button', { name: 'Save', exact: true }),
    // (Hidden while it has nothing to say.)
    status: dialog.locator('.settings-foot').getByRole('status', { includeHidden: true }),
    verdict: section.getByTestId('verdict'),
  };
}

/** Clicks Test connection and waits for a verdict of this kind; returns its text. */
async function testConnection(page, kind) {
  const s = settings(page);
  await s.test.click();
  return eventually(
    async () => {
      assert.equal(await s.verdict.getAttribute('data-kind'), kind, `verdict: ${await s.verdict.textContent()}`);
      return (await s.verdict.textContent()) ?? '';
    },
    { what: `a ${kind} verdict` },
  );
}

/** Every file under dir, recursively. */
async function filesUnder(dir) {
  const out = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** The files under dir whose bytes contain s. */
async function filesContaining(dir, s) {
  const needle = Buffer.from(s);
  const hits = [];
  for (const f of await filesUnder(dir)) {
    if ((await fs.readFile(f)).includes(needle)) hits.push(path.relative(dir, f));
  }
  return hits;
}

const EXPECTED = (prompt) => [
  { kind: 'user', text: prompt },
  { kind: 'agent', text: 'Working on it.' },
  { kind: 'update', text: 'Halfway there' },
  { kind: 'agent', text: 'All done.' },
  { kind: 'complete', text: 'Finished the e2e task' },
];

async function runCompleteTask(page, prompt) {
  await sendMessage(page, prompt);
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      assert.deepEqual(items.slice(-5), EXPECTED(prompt), `transcript: ${show(items)}`);
    },
    { what: 'the completed transcript' },
  );
}

test('first run: connect a custom provider, test it, choose a model, run a task on it', { timeout: 180_000 }, stack.test(async (page) => {
  const u = ui(page);
  // Nothing configured: the demo model, said clearly, with a way out.
  const banner = page.getByRole('note', { name: 'Demo model' });
  await banner.waitFor({ state: 'visible' });
  assert.match((await banner.textContent()) ?? '', /demo model/i);
  await page.getByRole('button', { name: 'Demo model', exact: true }).waitFor({ state: 'visible' });
  assert.equal(await page.getByRole('combobox', { name: 'Model for this conversation' }).count(), 0);
  await shot(page, 'first-run');

  await banner.getByRole('button', { name: 'Connect a model' }).click();
  const s = settings(page);
  await s.dialog.waitFor({ state: 'visible' });
  await eventually(async () => assert.equal(await s.radio('Offline demo model').isChecked(), true));
  // Opened at the provider: its choice has the focus.
  await eventually(async () =>
    assert.equal(await s.radio('Offline demo model').evaluate((el) => el === document.activeElement), true),
  );
  // Nothing changed yet: Save says so.
  assert.equal(await s.save.getAttribute('aria-disabled'), 'true');
  await s.dialog.getByText('No changes to save.').waitFor({ state: 'visible' });
  assert.equal(await s.section.getByRole('button', { name: /save/i }).count(), 0, 'no Save of its own in the provider section');
  await shot(page, 'settings-demo', s.dialog);

  // OpenAI without a key, with a changed step limit: Go refuses the
  // provider, and then nothing at all is saved.
  const steps = s.dialog.getByLabel('Step limit', { exact: true });
  await steps.fill('7');
  await s.radio('OpenAI').check();
  await s.save.click();
  await s.section.getByRole('alert').filter({ hasText: 'OpenAI needs an API key' }).waitFor({ state: 'visible' });
  assert.equal(await s.apiKey.getAttribute('aria-invalid'), 'true');
  await s.dialog.getByRole('alert').filter({ hasText: 'The model provider could not be saved (see above), so nothing was saved.' }).waitFor();
  assert.equal(((await s.status.textContent()) ?? '').trim(), '', 'no success claimed');
  await shot(page, 'save-refused', s.dialog);
  assert.equal((await page.evaluate(() => window.go.app.Settings.GetSettings())).limits.maxSteps, 50, 'the step limit was not saved');
  assert.equal((await page.evaluate(() => window.go.app.Conversations.ModelInfo())).demo, true, 'still on the demo model');
  await steps.fill('50');

  // A custom server: its address and a wrong key first.
  await s.radio('Custom').check();
  assert.equal(await s.baseUrl.inputValue(), '', 'Custom has no usual address');
  await s.baseUrl.fill(stack.mock.baseURL);
  assert.equal(await s.apiKey.getAttribute('type'), 'password');
  await s.apiKey.fill(WRONG_KEY);
  const keyNote = (await s.section.getByText(/API keys are kept/).textContent()) ?? '';
  assert.match(keyNote, /No system keyring is available, so API keys are kept in .*secrets\.json, readable only by you/);
  let text = await testConnection(page, 'wrong_key');
  assert.match(text, /Wrong API key/);
  assert.doesNotMatch(text, new RegExp(WRONG_KEY), 'the key is not in the verdict');
  await shot(page, 'verdict-wrong-key', s.dialog);

  // Nothing listening there.
  await s.apiKey.fill(KEY);
  const closed = `http://127.0.0.1:${await freePort()}/v1`;
  await s.baseUrl.fill(closed);
  text = await testConnection(page, 'unreachable');
  assert.match(text, /Server unreachable.*Could not reach/);
  await shot(page, 'verdict-unreachable', s.dialog);

  // Something that answers, but not like an OpenAI-compatible server.
  await s.baseUrl.fill(`${stack.mock.baseURL}/not-here`);
  text = await testConnection(page, 'not_compatible');
  assert.match(text, /Not an OpenAI-compatible server/);
  await shot(page, 'verdict-not-compatible', s.dialog);

  // The right address, a model it does not have.
  await s.baseUrl.fill(stack.mock.baseURL);
  await s.model.fill('no-such-model');
  text = await testConnection(page, 'model_not_found');
  assert.match(text, /Model not found.*no model "no-such-model"/);
  assert.equal(await s.model.getAttribute('aria-invalid'), 'true');
  await shot(page, 'verdict-model-not-found', s.dialog);

  // All good: OK with the model count.
  await s.model.fill('');
  text = await testConnection(page, 'ok');
  assert.match(text, /Connected.*2 models available/);
  await shot(page, 'verdict-ok', s.dialog);

  // Choose a model from the server's list.
  await s.model.click();
  await s.model.press('ArrowDown');
  // The server's models (the section's Reasoning effort select has options too).
  const options = s.section.getByRole('listbox', { name: 'Models on the server' }).getByRole('option');
  await eventually(async () => assert.deepEqual(await options.allTextContents(), [...MODELS].sort()));
  await shot(page, 'model-list', s.dialog);
  await s.section.getByRole('option', { name: 'mock-large', exact: true }).click();
  assert.equal(await s.model.inputValue(), 'mock-large');

  assert.equal(await s.save.getAttribute('aria-disabled'), null, 'a changed provider can be saved');
  await s.save.click();
  await eventually(async () => assert.equal(((await s.status.textContent()) ?? '').trim(), 'Saved. New tasks use mock-large.'));
  assert.equal(await s.save.getAttribute('aria-disabled'), 'true', 'nothing left to save');
  // The key field now only says that a key is saved.
  await s.section.getByText('A key is saved').waitFor({ state: 'visible' });
  assert.equal(await s.apiKey.count(), 0, 'no key field once saved');
  assert.ok(!(await page.content()).includes(KEY), 'the key is not in the page');
  // No restart: the banner is gone and the header names the model.
  await eventually(async () => assert.equal(await banner.count(), 0, 'the demo banner is gone'));
  await shot(page, 'settings-saved', s.dialog);
  await s.dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await s.dialog.waitFor({ state: 'detached' });

  const picker = page.getByRole('combobox', { name: 'Model for this conversation' });
  await eventually(async () => {
    assert.equal(await picker.evaluate((el) => el.selectedOptions[0]?.textContent), 'Default · mock-large');
    assert.deepEqual(await picker.locator('option').allTextContents(), ['Default · mock-large', 'mock-large', 'mock-model']);
  });
  await shot(page, 'header-model');
  const info = await page.evaluate(() => window.go.app.Conversations.ModelInfo());
  assert.deepEqual(
    { model: info.model, baseUrl: info.baseUrl, demo: info.demo, source: info.source, preset: info.preset },
    { model: 'mock-large', baseUrl: stack.mock.baseURL, demo: false, source: 'settings', preset: 'custom' },
  );

  // A task on it completes, and ran on that model.
  await runCompleteTask(page, '[complete] on the custom provider');
  const convId = (await page.evaluate(() => window.go.app.Conversations.ListConversations()))[0].id;
  let stored = await loadStored(page, convId);
  assert.deepEqual(stored.tasks.map((t) => t.model), ['mock-large']);

  // This conversation on the other model.
  await picker.selectOption('mock-model');
  await eventually(async () => {
    const m = await page.evaluate((id) => window.go.app.Conversations.ConversationModel(id), convId);
    assert.equal(m.model, 'mock-model');
  });
  await runCompleteTask(page, '[complete] on the other model');
  stored = await loadStored(page, convId);
  assert.deepEqual(stored.tasks.map((t) => t.model), ['mock-large', 'mock-model']);

  // Reopened, Settings show the saved provider and only that a key exists.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await eventually(async () => assert.equal(await s.radio('Custom').isChecked(), true));
  assert.equal(await s.baseUrl.inputValue(), stack.mock.baseURL);
  assert.equal(await s.model.inputValue(), 'mock-large');
  await s.section.getByText('A key is saved').waitFor({ state: 'visible' });
  assert.ok(!(await page.content()).includes(KEY), 'the key is not in the page');
  await page.keyboard.press('Escape');
  await s.dialog.waitFor({ state: 'detached' });
  assert.equal(await u.input.isEnabled(), true);

  // The key is only in the key file, which only the user can read; the
  // wrong one that was only tested is nowhere.
  assert.deepEqual(await filesContaining(stack.dataDir, KEY), ['secrets.json']);
  assert.deepEqual(await filesContaining(stack.dataDir, WRONG_KEY), []);
  const mode = (await fs.stat(path.join(stack.dataDir, 'secrets.json'))).mode & 0o777;
  assert.equal(mode.toString(8), '600', 'secrets.json is readable only by the user');
  for (const p of stack.procs) {
    assert.ok(!p.lines.some((l) => l.includes(KEY) || l.includes(WRONG_KEY)), `${p.name} logged a key`);
  }
}));

test('after a restart the provider and its key are still there', { timeout: 120_000 }, stack.test(async (page) => {
  await stack.restartApp({ signal: 'SIGTERM' });
  assert.equal(await page.getByRole('note', { name: 'Demo model' }).count(), 0, 'no demo banner');
  const picker = page.getByRole('combobox', { name: 'Model for this conversation' });
  await eventually(async () => assert.match((await picker.locator('option').allTextContents()).join('|'), /Default · mock-large\|mock-large\|mock-model/));
  await runCompleteTask(page, '[complete] after the restart');
  assert.deepEqual(await filesContaining(stack.dataDir, KEY), ['secrets.json']);
  for (const p of stack.procs) assert.ok(!p.lines.some((l) => l.includes(KEY)), `${p.name} logged the key`);
}));

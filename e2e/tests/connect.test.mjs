// Search across every conversation (Ctrl+K) among 10,000 conversations,
// opening the conversation at the message found; export a conversation
// to Markdown and JSON and import the JSON back; a broken file is refused.
// The native file dialogs cannot be driven from a browser: the dev build's
// DevDialogs.AnswerNext answers the next one, and everything after the
// dialog runs as for the person's clicks.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, openConversation, ui } from '../lib/ui.mjs';

const TITLE = 'Search target';
const MESSAGES = 2_000;
const FILLERS = 10_000;

const stack = new Stack('connect', {
  seed: ['-messages', String(MESSAGES), '-title', TITLE, '-fillers', String(FILLERS), '-filler-notes'],
});
let outDir;
before(async () => {
  await stack.start();
  outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'errand-e2e-exports-'));
});
after(async () => {
  await stack.stop();
  if (outDir) await fs.rm(outDir, { recursive: true, force: true });
});

/** Where the row with this text is, relative to the transcript's viewport: 'in view', 'outside' or 'absent'. */
function rowPlace(page, text) {
  return page.evaluate((text) => {
    const scroller = document.querySelector('[role=region][aria-label="Messages"]');
    const row = Array.from(document.querySelectorAll('[role=log] > [data-index]')).find((el) => el.textContent?.includes(text));
    if (!scroller || !row) return { place: 'absent' };
    const a = scroller.getBoundingClientRect();
    const b = row.getBoundingClientRect();
    return { place: b.bottom > a.top && b.top < a.bottom ? 'in view' : 'outside', found: row.hasAttribute('data-found') };
  }, text);
}

function answerNextDialog(page, file) {
  return page.evaluate((p) => window.go.app.DevDialogs.AnswerNext(p), file);
}

test('Ctrl+K finds a message among 10,000 conversations and opens it there', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await u.row(TITLE).waitFor({ state: 'visible' });
  await openConversation(page, 'Filler conversation 10000');

  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  const box = dialog.getByRole('textbox', { name: 'Search conversations' });
  await eventually(async () => assert.equal(await box.evaluate((el) => el === document.activeElement), true), { what: 'the search box to have the focus' });

  // Any text is taken literally: syntax finds nothing and breaks nothing.
  await box.fill('"(NEAR * AND');
  await dialog.getByRole('status').filter({ hasText: 'No messages found' }).waitFor();

  // A message far back in one conversation among 10,001, found by the
  // starts of its words (as typed, before they are whole): "Task #137:
  // summarise report 137", not its reply "Report 137 is summarised.".
  await box.fill('tas summar 137');
  const options = dialog.getByRole('option');
  await eventually(async () => assert.equal(await options.count(), 1), { what: 'one result' });
  const hit = options.first();
  assert.match(await hit.textContent(), new RegExp(`^${TITLE}`));
  assert.deepEqual(await hit.locator('mark').allTextContents(), ['Task', '137', 'summarise', '137']);
  // Every word is a prefix: the reply matches too once "task" is left out.
  await box.fill('summar repo 137');
  await eventually(async () => assert.equal(await options.count(), 2), { what: 'the task and its reply' });

  // Results follow typing; arrows move; Enter opens.
  await box.fill('groceries bank');
  await eventually(async () => assert.equal(await options.count(), 20), { what: '20 filler results' });
  assert.match(await options.first().textContent(), /^Filler conversation 10000/);
  await box.press('ArrowDown');
  assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
  await box.fill('task summarise report 137');
  await eventually(async () => assert.equal(await options.count(), 1), { what: 'one result again' });
  await box.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), TITLE), { what: 'the conversation to open' });
  await eventually(
    async () => assert.deepEqual(await rowPlace(page, 'Task #137: summarise report 137'), { place: 'in view', found: true }),
    { what: 'the message in view, marked' },
  );
}));

test('a conversation exported to Markdown and JSON, and the JSON imported back', { timeout: 60_000 }, stack.test(async (page) => {
  const u = ui(page);
  const source = 'Filler conversation 9999';
  await u.newConversation.click(); // the search above may have left another open
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill(source);
  // Go's answer replaces the list a moment later: the row is clicked in
  // the list it leaves, not in the one before it (where the click could
  // land as the list changes under it).
  await eventually(
    async () => assert.equal(await u.convList.locator('ul').getAttribute('data-count'), '1'),
    { what: 'the one match listed' },
  );
  await openConversation(page, source);
  await search.fill('');

  const md = path.join(outDir, 'note.md');
  await answerNextDialog(page, md);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitem', { name: /^Markdown/ }).click();
  await page.getByText(`Exported to ${md}`).waitFor();
  const markdown = await fs.readFile(md, 'utf8');
  assert.match(markdown, new RegExp(`^# ${source}\\n`));
  assert.match(markdown, /### You · .*\n\nFiller note 9999: groceries, the bank and the post office\n/);

  const json = path.join(outDir, 'note.json');
  await answerNextDialog(page, json);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await page.getByRole('menuitem', { name: /^JSON/ }).click();
  await page.getByText(`Exported to ${json}`).waitFor();
  const file = JSON.parse(await fs.readFile(json, 'utf8'));
  assert.equal(file.format, 'errand.conversation');
  assert.equal(file.version, 5); // 5: a backup may carry saved prompts; conversations carry their state and archive
  const original = file.conversations[0];
  assert.equal(original.conversation.title, source);

  // A file that is not an export is refused, and nothing is imported.
  const broken = path.join(outDir, 'broken.json');
  await fs.writeFile(broken, '{"format": "errand.conversation", "version": 1, "conversations": [');
  await answerNextDialog(page, broken);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'Could not import' }).waitFor();
  const newer = path.join(outDir, 'newer.json');
  await fs.writeFile(newer, JSON.stringify({ ...file, version: 99 }));
  await answerNextDialog(page, newer);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'newer version of Errand' }).waitFor();
  const ids = async () => (await page.evaluate((t) => window.go.app.Conversations.ListConversationsPage(t, '', 10, '', false), source)).items.map((c) => c.id);
  assert.deepEqual(await ids(), [original.conversation.id]);

  await answerNextDialog(page, json);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText('Imported 1 conversation').waitFor();
  await eventually(async () => assert.equal((await ids()).length, 2), { what: 'the imported copy listed' });
  assert.ok((await ids()).includes(original.conversation.id), 'the original stays, the copy has a new id');
  assert.equal((await u.title.textContent())?.trim(), source);
  await u.log.getByText('Filler note 9999: groceries, the bank and the post office').waitFor();
}));

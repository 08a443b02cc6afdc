// Archive and restore: an archived conversation leaves the list, appears in
// the Archived view (found there by its title, and by Ctrl+K's message
// search), and Restore brings it back. At 800 px the header's less-used
// actions are in "More actions".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('convstate');
before(() => stack.start());
after(() => stack.stop());

const TITLE = '[complete] zebra migration plan';

test('an archived conversation leaves the list, is found in Archived and by search, and Restore brings it back', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, TITLE);
  await waitForStatus(page, 'Completed');
  await u.row(TITLE).waitFor({ state: 'visible' });

  await page.getByRole('button', { name: 'Archive', exact: true }).click();
  await u.row(TITLE).waitFor({ state: 'detached' });
  await page.locator('.chat-header .state-chip', { hasText: 'Archived' }).waitFor();

  // The Archived view lists it, and its title search finds it there.
  const archivedView = page.getByRole('button', { name: 'Archived', exact: true });
  await archivedView.click();
  assert.equal(await archivedView.getAttribute('aria-pressed'), 'true');
  const archived = page.getByRole('navigation', { name: 'Archived conversations' });
  const archivedRow = archived.getByRole('button', { name: /^\[complete\] zebra/ });
  await archivedRow.waitFor({ state: 'visible' });
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill('zebra');
  await archivedRow.waitFor({ state: 'visible' });
  await search.fill('no such title');
  await archived.getByText('No archived conversations.').waitFor();
  await search.fill('');
  await archivedView.click();
  await u.convList.waitFor();
  assert.equal(await u.row(TITLE).count(), 0, 'still out of the list');

  // Ctrl+K searches its messages too, and opens it.
  await u.newConversation.click();
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  await dialog.getByRole('textbox', { name: 'Search conversations' }).fill('zebra migration');
  const hit = dialog.getByRole('option').first();
  await hit.waitFor();
  await hit.click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), TITLE), { what: 'the archived conversation to open' });

  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  await u.row(TITLE).waitFor({ state: 'visible' });
  await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
}));

test('at 800 px the header folds Export, Archive and Delete into More actions', { timeout: 60_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.setViewportSize({ width: 800, height: 600 });
  try {
    await sendMessage(page, '[complete] narrow header');
    await waitForStatus(page, 'Completed');
    assert.equal(await page.getByRole('button', { name: 'Delete conversation', exact: true }).count(), 0);
    const more = page.getByRole('button', { name: 'More actions', exact: true });
    await more.click();
    const menu = page.getByRole('menu', { name: 'More actions' });
    assert.deepEqual(await menu.getByRole('menuitem').allTextContents(), ['Export as Markdown', 'Export as JSON', 'Archive', 'Delete conversation']);
    // More actions is in view without scrolling the header sideways.
    const box = await more.boundingBox();
    const header = await page.locator('.chat-header-right').boundingBox();
    assert.ok(box && header && box.x >= header.x && box.x + box.width <= header.x + header.width + 1, `More actions in view: ${JSON.stringify({ box, header })}`);
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/convstate-800.png` });
    await menu.getByRole('menuitem', { name: 'Archive' }).click();
    await u.row('[complete] narrow header').waitFor({ state: 'detached' });
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}));

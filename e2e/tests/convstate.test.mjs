// Archive and restore: an archived conversation leaves the list, appears in
// the Archived view (found there by its title, and by Ctrl+K's message
// search), and Restore brings it back. At 800 px the header's less-used
// actions are in "More actions". End conversation takes a reason.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, newConversation, sendMessage, ui, waitForStatus } from '../lib/ui.mjs';

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

/** The header's controls neither overflow it nor scroll sideways. */
async function assertHeaderFits(page) {
  const fit = await page.locator('.chat-header').evaluate((h) => {
    const right = h.querySelector('.chat-header-right');
    const left = h.querySelector('.chat-title-wrap');
    const title = h.querySelector('.chat-title').getBoundingClientRect().width;
    const parts = [...left.children, ...right.children].map((el) => el.getBoundingClientRect());
    const apart = parts.every((r, i) => i === 0 || r.left >= parts[i - 1].right - 1);
    return { header: [h.scrollWidth, h.clientWidth], right: [right.scrollWidth, right.clientWidth], overflow: getComputedStyle(right).overflowX, title, apart };
  });
  const fits = fit.header[0] <= fit.header[1] && fit.right[0] <= fit.right[1] && fit.overflow === 'visible';
  // The title keeps a few words, and no control covers another.
  assert.ok(fits && fit.title >= 60 && fit.apart, `the header fits: ${JSON.stringify(fit)}`);
}

/** Each item is whole in the window and on top at its centre (a click reaches it). */
async function assertOnTop(menu) {
  const items = await menu.getByRole('menuitem').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      const inWindow = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      return { label: el.textContent, inWindow, onTop: !!hit && el.contains(hit) };
    }),
  );
  for (const it of items) assert.ok(it.inWindow && it.onTop, `menu item shown whole and on top: ${JSON.stringify(it)}`);
}

test('at 800 px Compact now, Export, Archive and Delete are in More actions, which opens whole and on top; the header never scrolls sideways', { timeout: 90_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.setViewportSize({ width: 800, height: 900 });
  try {
    await sendMessage(page, '[complete] narrow header');
    await waitForStatus(page, 'Completed');
    for (const name of ['Delete conversation', 'Compact now', 'Export', 'Archive']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `${name} is not a header button`);
    }
    // The most used stay: the agent and model pickers, Memory.
    for (const name of ['Agent', 'Model for this conversation']) await page.getByRole('combobox', { name, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Memory', exact: true }).waitFor();
    await assertHeaderFits(page);

    const more = page.getByRole('button', { name: 'More actions', exact: true });
    await more.click();
    const menu = page.getByRole('menu', { name: 'More actions' });
    assert.deepEqual(await menu.getByRole('menuitem').allTextContents(), ['Compact now', 'Export as Markdown', 'Export as JSON', 'Archive', 'Delete conversation']);
    await assertOnTop(menu);
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/convstate-800-menu.png` });

    // Arrows move, Esc closes and gives the focus back to More actions.
    await page.keyboard.press('ArrowDown');
    assert.equal(await menu.getByRole('menuitem', { name: 'Export as Markdown' }).evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await more.evaluate((el) => el === document.activeElement), true, 'focus back on More actions');

    // A click on an item (the last, the farthest down) reaches it.
    await more.click();
    await menu.getByRole('menuitem', { name: 'Delete conversation' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    await more.click();
    await menu.getByRole('menuitem', { name: 'Archive' }).click();
    await u.row('[complete] narrow header').waitFor({ state: 'detached' });
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
}));

test('End conversation takes a reason; the header shows it', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  const section = settings.getByRole('region', { name: 'Agents' });
  await section.getByRole('button', { name: 'New agent', exact: true }).click();
  const form = section.getByRole('form', { name: 'New agent' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ender');
  await form.getByRole('textbox', { name: 'Instructions' }).fill('You are Ender. Ask before you act.');
  await form.getByRole('checkbox', { name: 'Show “End conversation”' }).check();
  await form.getByRole('button', { name: 'Save agent' }).click();
  await section.getByRole('button', { name: 'Edit Ender' }).waitFor();
  await settings.getByRole('button', { name: 'Close' }).click();

  await newConversation(page);
  await page.getByRole('combobox', { name: 'Agent', exact: true }).selectOption({ label: 'Ender' });
  await sendMessage(page, '[ask] pick a color');
  await page.getByRole('button', { name: 'End conversation', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'End this conversation?' });
  const reason = 'Colour chosen elsewhere, in the conversation about the new kitchen, with the samples';
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill(reason);
  await dialog.getByRole('button', { name: 'End conversation' }).click();
  await dialog.waitFor({ state: 'detached' });
  const chip = page.locator('.chat-header .state-chip', { hasText: 'Ended by you' });
  await eventually(async () => assert.equal((await chip.textContent())?.trim(), `Ended by you: ${reason}`));
  assert.equal(await chip.getAttribute('title'), `Ended by you: ${reason}`, 'the whole reason on hover');
  // Short of room the reason gives way, never who ended it.
  const shown = await chip.evaluate((el) => {
    const label = el.querySelector('.state-label').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return { whole: label.left >= box.left && label.right <= box.right, cut: el.querySelector('.state-reason').scrollWidth > el.querySelector('.state-reason').clientWidth };
  });
  assert.ok(shown.whole, '"Ended by you" is shown whole');
  assert.ok(shown.cut, 'the reason gives way (ellipsis)');
  await assertHeaderFits(page);
  if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/convstate-1280-ended.png` });
}));

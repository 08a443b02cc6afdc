// What a new user tripped over in the first hour, in the whole app: the
// approval card at the smallest window, a tool row that says the person
// denied it, Esc in the answer box, a wide table, an error notice and the
// composer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards, waitForWaiting } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { eventually, newConversation, sendMessage, show, statusText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('polish');
before(() => stack.start());
after(() => stack.stop());

/** The part of box a that overlaps box b, in px² (0: none). */
function overlap(a, b) {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether the element's box is wholly inside the viewport. */
async function inView(page, locator) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  return !!box && box.y >= 0 && box.x >= 0 && box.y + box.height <= vp.height && box.x + box.width <= vp.width;
}

test('at 800×560 the approval card leaves the transcript room and its buttons in view; Deny reads "Denied by you"', { timeout: 120_000 }, stack.test(async (page, t) => {
  const c = cards(page);
  await page.setViewportSize({ width: 800, height: 560 });
  await sendMessage(page, '[write] a file');
  await waitForWaiting(stack, t, {
    title: '[write] a file',
    status: 'waiting_approval',
    check: async () => assert.equal(await c.approval.isVisible(), true, 'the approval card'),
  });
  const approve = c.button(c.approval, 'Approve');
  const deny = c.button(c.approval, 'Deny');
  // The card scrolled to its top, as it opens: the buttons are still in view.
  await c.approval.evaluate((el) => el.scrollTo(0, 0));
  for (const b of [approve, deny]) assert.ok(await inView(page, b), 'a decision button is below the fold');
  const card = await c.approval.boundingBox();
  const shown = await approve.boundingBox();
  assert.ok(shown.y + shown.height <= card.y + card.height, 'the buttons are inside the card, not cut off by it');
  const log = await page.getByRole('region', { name: 'Messages' }).boundingBox();
  assert.ok(log.height >= 100, `the transcript keeps room: ${log.height}px`);
  const title = await ui(page).title.boundingBox();
  assert.ok(title && title.width >= 60, `the conversation's title shows in the header: ${JSON.stringify(title)}`);

  await deny.click();
  await c.button(c.approval, 'Deny').click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const tools = (await transcript(page)).filter((i) => i.kind === 'tool').map((i) => i.text.trim());
    assert.deepEqual(tools, ['›Denied by you: write_file'], `tool rows: ${JSON.stringify(tools)}`);
  });
  await page.setViewportSize({ width: 1280, height: 900 });
}));

test('Esc in the answer box leaves it; the question still waits and the typed answer stays', { timeout: 60_000 }, stack.test(async (page, t) => {
  const u = ui(page);
  await newConversation(page);
  await sendMessage(page, '[ask] a colour');
  await waitForWaiting(stack, t, {
    title: '[ask] a colour',
    status: 'waiting_user',
    check: async () => assert.equal(await statusText(page), 'Waiting for your answer'),
  });
  await u.input.fill('Bl');
  await u.input.press('Escape');
  assert.equal(await statusText(page), 'Waiting for your answer');
  assert.equal(await u.input.inputValue(), 'Bl', 'the half-typed answer is kept');
  // Esc again asks before stopping a task that waits for the person.
  await page.keyboard.press('Escape');
  const dialog = page.getByRole('alertdialog', { name: 'Stop this task?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Keep waiting' }).click();
  assert.equal(await statusText(page), 'Waiting for your answer');
  await u.input.fill('Blue');
  await u.reply.click();
  await waitForStatus(page, 'Completed');
}));

test('a wide table scrolls sideways and never breaks a word letter by letter', { timeout: 60_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.setViewportSize({ width: 800, height: 700 });
  await newConversation(page);
  await sendMessage(page, '[table] compare');
  await waitForStatus(page, 'Completed');
  const wrap = page.locator('.md-table-wrap').first();
  await wrap.waitFor();
  const broken = await wrap.evaluate((el) => {
    const out = [];
    for (const cell of el.querySelectorAll('th, td')) {
      const range = document.createRange();
      range.selectNodeContents(cell);
      // One word, one line: more line boxes means it was broken apart.
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      if (lines.size > 1) out.push(cell.textContent);
    }
    return { out, scrolls: el.scrollWidth > el.clientWidth };
  });
  assert.deepEqual(broken.out, [], 'cells whose word was broken');
  assert.ok(broken.scrolls, 'the table is wider than the bubble, so it scrolls');
  await page.setViewportSize({ width: 1280, height: 900 });
}));

test('an error notice never covers the composer', { timeout: 60_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.setViewportSize({ width: 800, height: 560 });
  // Another window deletes every conversation behind this page's back.
  await page.evaluate(async () => {
    for (const c of await window.go.app.Conversations.ListConversations()) {
      await window.go.app.Conversations.DeleteConversation(c.id);
    }
  });
  await u.input.fill('[complete] into the void');
  await u.send.click();
  const alert = page.getByRole('alert').first();
  await alert.waitFor({ state: 'visible' });
  const toast = await alert.boundingBox();
  const composer = await page.locator('form.composer').boundingBox();
  assert.equal(overlap(toast, composer), 0, `the notice ${JSON.stringify(toast)} covers the composer ${JSON.stringify(composer)}`);
  await alert.getByRole('button', { name: 'Close notification' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
}));

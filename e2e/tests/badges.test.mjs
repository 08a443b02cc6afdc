// A conversation in the background: its task runs, asks, and the sidebar
// says so (spinner, "Needs input", unread count) while another conversation
// is open; opening it clears the unread count, and answering by clicking a
// choice clears "Needs input". Also the keyboard: Ctrl+N and Esc.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import {
  eventually,
  openConversation,
  sendMessage,
  show,
  statusText,
  transcript,
  ui,
  waitForStatus,
} from '../lib/ui.mjs';

const A = '[later] pick a color in the background';
const stack = new Stack('badges');
before(() => stack.start());
after(() => stack.stop());

/** The badges of a sidebar row, as the row shows them. */
async function badges(page, title) {
  const row = ui(page).row(title);
  return row.evaluate((el) => ({
    working: !!el.querySelector('.live-dot'),
    needsInput: !!el.querySelector('.needs-input'),
    unread: Number(el.querySelector('.unread')?.firstChild?.textContent ?? 0),
  }));
}

test('badges appear on a conversation in the background and clear when it is opened and answered', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, A);

  // Ctrl+N: a new conversation opens, with the cursor in the composer.
  await page.keyboard.press('Control+N');
  await eventually(
    async () => {
      assert.equal((await u.title.textContent())?.trim(), 'New conversation');
      assert.equal(await u.input.evaluate((el) => el === document.activeElement), true, 'the composer has focus');
    },
    { what: 'Ctrl+N to open a new conversation' },
  );

  // A thinks in the background (the mock holds its question back until
  // told), then asks.
  await eventually(
    async () => assert.deepEqual(await badges(page, A), { working: true, needsInput: false, unread: 0 }),
    { what: "A's row to show it is working" },
  );
  await stack.releaseLater();
  await eventually(
    async () => {
      const b = await badges(page, A);
      assert.deepEqual(b, { working: false, needsInput: true, unread: 1 }, `A's row: ${JSON.stringify(b)}`);
      assert.match((await u.row(A).textContent()) ?? '', /Needs input/);
      assert.match((await u.row(A).textContent()) ?? '', /1 unread/);
    },
    { what: "A's row to show Needs input and 1 unread" },
  );
  // The open conversation is not marked, and shows nothing of A.
  assert.deepEqual(await badges(page, 'New conversation'), { working: false, needsInput: false, unread: 0 });
  assert.deepEqual((await transcript(page)).filter((i) => i.kind !== 'other'), []);
  // A moved to the top: newest activity first.
  const first = await u.convList.getByRole('listitem').first().textContent();
  assert.match(first ?? '', /^\[later\]/, `first row: ${first}`);

  // Opening A clears the unread count; the question still waits.
  await openConversation(page, A);
  await eventually(
    async () => {
      assert.deepEqual(await badges(page, A), { working: false, needsInput: true, unread: 0 });
      assert.equal(await statusText(page), 'Waiting for your answer');
      assert.deepEqual(await u.choices.getByRole('button').allTextContents(), ['Red', 'Blue']);
    },
    { what: 'A open, unread cleared, the question shown' },
  );

  // Answer by clicking a choice.
  await u.choices.getByRole('button', { name: 'Blue', exact: true }).click();
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
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
      assert.deepEqual(await badges(page, A), { working: false, needsInput: false, unread: 0 });
      assert.equal(await u.choices.count(), 0, 'the choice buttons are gone');
    },
    { what: 'the answer and the completion' },
  );
}));

test('Esc stops the running task at once, like the Stop button', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.keyboard.press('Control+N');
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'));
  await sendMessage(page, '[slow] a long story to interrupt');
  await waitForStatus(page, /^(Working|Thinking|Planning|Writing)…$/);
  await eventually(async () => {
    const items = await transcript(page);
    assert.ok(items.some((i) => i.kind === 'agent' && /word5\b/.test(i.text)), `transcript: ${show(items)}`);
  });
  // Focus is nowhere in particular (the composer is disabled while it works).
  await page.keyboard.press('Escape');
  await waitForStatus(page, 'Stopped');
  await eventually(async () => {
    const items = await transcript(page);
    assert.deepEqual(
      items.filter((i) => i.kind === 'notice').map((i) => i.text.trim()),
      ['Stopped by user'],
      `transcript: ${show(items)}`,
    );
    assert.equal(await u.send.isVisible(), true, 'Send is back');
  });
}));

test('every control is named for screen readers', { timeout: 60_000 }, stack.test(async (page) => {
  // The page now holds conversations in several states, a transcript with
  // cards and tool rows, and the composer.
  const unnamed = await page.evaluate(() => {
    const text = (el) => (el?.textContent ?? '').trim();
    const nameOf = (el) =>
      (
        el.getAttribute('aria-label') ||
        (el.getAttribute('aria-labelledby') ?? '')
          .split(/\s+/)
          .map((id) => text(document.getElementById(id)))
          .join(' ') ||
        Array.from(el.labels ?? []).map(text).join(' ') ||
        text(el) ||
        el.getAttribute('title') ||
        ''
      ).trim();
    const controls = document.querySelectorAll(
      'button, a[href], input, textarea, select, [role=button], [role=checkbox], [tabindex]:not([tabindex="-1"])',
    );
    return Array.from(controls)
      .filter((el) => !nameOf(el))
      .map((el) => el.outerHTML.slice(0, 160));
  });
  assert.deepEqual(unnamed, [], 'controls without an accessible name');
}));

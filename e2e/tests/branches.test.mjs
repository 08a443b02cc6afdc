// The message tree on the offline demo model (its chat replies vary, as a
// real model's do): edit and resend with the version arrows back and forth,
// regenerate, variations side by side with "Keep this one", and branch into
// a new conversation. One conversation, agent mode off, carries them all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('branches', { env: false });
before(() => stack.start());
after(() => stack.stop());

const FIRST = 'plan a picnic';
const SECOND = 'what should I bring';
const EDITED = 'what should I bring if it rains';

/** The transcript as [kind, text] pairs, text trimmed. */
async function rows(page) {
  return (await transcript(page)).map(({ kind, text }) => [kind, text.trim()]);
}

/** Waits until the transcript's texts of kind are want (a list of strings or RegExps). */
function waitForTexts(page, kind, want, what) {
  return eventually(
    async () => {
      const items = await transcript(page);
      const got = items.filter((i) => i.kind === kind && !i.streaming).map((i) => i.text.trim());
      assert.equal(got.length, want.length, `${kind} rows: ${show(items)}`);
      want.forEach((w, i) => (w instanceof RegExp ? assert.match(got[i], w) : assert.equal(got[i], w)));
      return got;
    },
    { what },
  );
}

/** The row of the last message of kind ('user' or 'agent'). */
function lastRow(page, kind) {
  return ui(page).log.locator(`.row:has(.bubble-${kind}):not(:has(.bubble-answer))`).last();
}

test(
  'edit and resend, the version arrows, regenerate, variations and a branch into a new conversation',
  { timeout: 240_000 },
  stack.test(async (page) => {
    const u = ui(page);
    await u.agentMode.uncheck();
    await eventually(async () => assert.equal(await u.agentMode.isEnabled(), true));
    await sendMessage(page, FIRST);
    await waitForStatus(page, 'Replied');
    await sendMessage(page, SECOND);
    await waitForStatus(page, 'Replied');
    const [, reply2] = await waitForTexts(page, 'agent', [/demo model/, /demo model/], 'two replies');

    // Edit and resend: a new branch from the second message.
    await lastRow(page, 'user').getByRole('button', { name: 'Edit message' }).click();
    const editor = page.getByRole('textbox', { name: 'Edited message' });
    await editor.fill('   ');
    assert.equal(await page.getByRole('button', { name: 'Send edited message' }).isDisabled(), true, 'an empty edit cannot be sent');
    await editor.fill(EDITED);
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/branches-editor.png` });
    await editor.press('Enter');
    await waitForTexts(page, 'user', [FIRST, EDITED], 'the edited message on its branch');
    await waitForStatus(page, 'Replied');
    const edited = lastRow(page, 'user');
    await eventually(async () => assert.match((await edited.getByRole('group', { name: 'Versions' }).textContent()) ?? '', /2\/2/));
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/branches-arrows.png` });

    // The arrows switch back and forth; each branch keeps its reply.
    await edited.getByRole('button', { name: 'Previous version' }).click();
    await waitForTexts(page, 'user', [FIRST, SECOND], 'the first version back');
    await waitForTexts(page, 'agent', [/demo model/, reply2], 'its own reply');
    const back = lastRow(page, 'user');
    assert.match((await back.getByRole('group', { name: 'Versions' }).textContent()) ?? '', /1\/2/);
    await back.getByRole('button', { name: 'Next version' }).click();
    await waitForTexts(page, 'user', [FIRST, EDITED], 'the edited version again');

    // Regenerate: a new reply beside the old one, with its own arrows.
    const before = (await waitForTexts(page, 'agent', [/demo model/, /demo model/], 'the edited branch'))[1];
    await lastRow(page, 'agent').getByRole('button', { name: 'Regenerate' }).click();
    await waitForStatus(page, 'Replied');
    const regenerated = await eventually(async () => {
      const got = await waitForTexts(page, 'agent', [/demo model/, /demo model/], 'the regenerated reply');
      assert.notEqual(got[1], before, 'the demo model writes a different reply');
      return got[1];
    });
    const replyRow = lastRow(page, 'agent');
    await eventually(async () => assert.match((await replyRow.getByRole('group', { name: 'Versions' }).textContent()) ?? '', /2\/2/));
    await replyRow.getByRole('button', { name: 'Previous version' }).click();
    await waitForTexts(page, 'agent', [/demo model/, before], 'the old reply back');
    await lastRow(page, 'agent').getByRole('button', { name: 'Next version' }).click();
    await waitForTexts(page, 'agent', [/demo model/, regenerated], 'the regenerated reply again');

    // Variations: three more, side by side; keep the second.
    await lastRow(page, 'agent').getByRole('button', { name: 'Variations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Variations' });
    await dialog.getByRole('button', { name: 'Write variations' }).click();
    const keep = dialog.getByRole('button', { name: 'Keep this one' });
    await eventually(async () => assert.equal(await keep.count(), 3), { timeout: 60_000, what: 'three variations' });
    // Each text is drawn from a deferred value: it may land a frame after "Keep this one".
    const texts = await eventually(async () => {
      const got = await dialog.locator('.variation-body').allTextContents();
      for (const text of got) assert.match(text, /a summary\.\s*$/, 'each variation written to its end');
      assert.equal(new Set(got).size, 3, `three different replies: ${JSON.stringify(got)}`);
      return got;
    });
    const boxes = await dialog.locator('.variation').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    assert.ok(Math.max(...boxes) - Math.min(...boxes) < 2, 'the variations are side by side');
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/branches-variations.png` });
    await keep.nth(1).click();
    await eventually(async () => assert.equal(await dialog.count(), 0, 'the view closes'));
    await waitForTexts(page, 'agent', [/demo model/, texts[1].trim()], 'the kept variation');
    await eventually(async () =>
      assert.match((await lastRow(page, 'agent').getByRole('group', { name: 'Versions' }).textContent()) ?? '', /\/5/),
    );

    // Branch into a new conversation from the first reply, the folder copied.
    const firstReply = u.log.locator('.row:has(.bubble-agent)').first();
    await firstReply.getByRole('button', { name: 'Branch into new conversation' }).click();
    const branchDialog = page.getByRole('dialog', { name: 'Branch into new conversation' });
    await branchDialog.getByRole('radio', { name: /Copy the folder/ }).check();
    await branchDialog.getByRole('button', { name: 'Branch', exact: true }).click();
    await eventually(async () => assert.equal((await u.title.textContent())?.trim(), `Branch of ${FIRST}`));
    await eventually(async () => {
      const got = await rows(page);
      // The demo model thinks before it answers: its Thinking block comes along.
      assert.deepEqual(got.map(([k]) => k), ['user', 'thinking', 'agent'], `the new conversation: ${JSON.stringify(got)}`);
      assert.equal(got[0][1], FIRST);
    });
  }),
);

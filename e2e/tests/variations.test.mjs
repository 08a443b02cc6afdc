// Variations worth comparing, on the mock model serving two models: how
// many (2), the second on the other model; they stream side by side, each
// told its own approach, each with its tokens, cost and time; one is kept;
// then the other branch is deleted after a confirmation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('variations', { mockArgs: ['-models', 'mock-model,mock-b'], mode: 'chat' });
before(() => stack.start());
after(() => stack.stop());

const PROMPT = 'name a cat';

/** The row of the last reply. */
function lastReply(page) {
  return ui(page).log.locator('.row:has(.bubble-agent)').last();
}

test(
  'two variations on two models compared and one kept, then a branch deleted',
  { timeout: 180_000 },
  stack.test(async (page) => {
    await sendMessage(page, PROMPT);
    await waitForStatus(page, 'Replied');
    await eventually(async () => assert.match((await lastReply(page).textContent()) ?? '', /Echo: name a cat/));

    await lastReply(page).getByRole('button', { name: 'Variations' }).click();
    const dialog = page.getByRole('dialog', { name: 'Variations' });
    const howMany = dialog.getByRole('spinbutton', { name: 'How many' });
    assert.equal(await howMany.inputValue(), '3');
    await howMany.fill('2');
    await eventually(async () => assert.equal(await dialog.getByRole('region').count(), 2));
    await dialog.getByRole('region', { name: 'Variation 2' }).getByRole('combobox').selectOption('mock-b');
    await dialog.getByRole('button', { name: 'Write variations' }).click();

    const keep = dialog.getByRole('button', { name: 'Keep this one' });
    await eventually(async () => assert.equal(await keep.count(), 2), { timeout: 60_000, what: 'two variations' });
    const first = dialog.getByRole('region', { name: 'Variation 1' });
    const second = dialog.getByRole('region', { name: 'Variation 2' });
    // The text is drawn from a deferred value: it may land a frame after "Keep this one".
    await eventually(async () => assert.match((await first.textContent()) ?? '', /Variation 1 of 2 from mock-model: name a cat/));
    await eventually(async () => assert.match((await second.textContent()) ?? '', /Variation 2 of 2 from mock-b: name a cat/));
    for (const column of [first, second]) {
      const figures = (await column.getByLabel('Figures').textContent()) ?? '';
      assert.match(figures, /\d[\d,]* tokens/, `tokens: ${figures}`);
      assert.match(figures, /\$/, `cost: ${figures}`);
      assert.match(figures, /\d+:\d\d/, `time: ${figures}`);
    }
    const boxes = await dialog.locator('.variation').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    assert.ok(Math.max(...boxes) - Math.min(...boxes) < 2, 'the variations are side by side');
    if (process.env.ERRAND_E2E_SHOTS) await page.screenshot({ path: `${process.env.ERRAND_E2E_SHOTS}/variations.png` });

    await second.getByRole('button', { name: 'Keep this one' }).click();
    await eventually(async () => assert.equal(await dialog.count(), 0, 'the view closes'));
    await eventually(async () => assert.match((await lastReply(page).textContent()) ?? '', /from mock-b: name a cat/));
    await eventually(async () =>
      assert.match((await lastReply(page).getByRole('group', { name: 'Versions' }).textContent()) ?? '', /\/3/),
    );

    // Delete the branch shown: after the confirmation another version shows.
    await lastReply(page).getByRole('button', { name: 'Delete branch' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete this branch?' });
    await ask.getByRole('button', { name: 'Delete branch' }).click();
    await eventually(async () => assert.doesNotMatch((await lastReply(page).textContent()) ?? '', /mock-b/));
    await eventually(async () =>
      assert.match((await lastReply(page).getByRole('group', { name: 'Versions' }).textContent()) ?? '', /\/2/),
    );
  }),
);

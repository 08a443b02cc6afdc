// Memory: a fact the agent remembers shows in Settings → Memory, is edited
// there, and the edited value is what the next request carries (the mock
// model answers [facts] with the facts of its request's system prompt).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('memory');
before(() => stack.start());
after(() => stack.stop());

/** A screenshot for a person to look at, light and dark, when ERRAND_E2E_SHOTS names a folder. */
async function shot(page, name, target) {
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

/** Waits until the transcript has an agent message with exactly text. */
function waitForAgentText(page, text) {
  return eventually(
    async () => {
      const items = await transcript(page);
      assert.ok(
        items.some((i) => i.kind === 'agent' && i.text.trim() === text),
        `no agent message ${JSON.stringify(text)}: ${show(items)}`,
      );
    },
    { what: `the reply ${text}` },
  );
}

async function openMemorySettings(page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('region', { name: 'Memory' });
  await section.getByRole('heading', { name: 'Memory', exact: true }).waitFor();
  return { dialog, section };
}

test('a remembered fact is edited in Settings → Memory and the edit reaches the next request', { timeout: 120_000 }, stack.test(async (page) => {
  await sendMessage(page, '[remember] my editor');
  await waitForAgentText(page, 'Result: Remembered "favourite editor" for every conversation. The user can see and edit it in Settings → Memory.');
  await waitForStatus(page, 'Completed');

  const { dialog, section } = await openMemorySettings(page);
  const sw = section.getByRole('switch', { name: 'Use memory' });
  assert.equal(await sw.getAttribute('aria-checked'), 'true', 'memory is on by default');
  const global = section.getByRole('list', { name: 'All conversations' });
  const row = global.getByRole('listitem').filter({ hasText: 'favourite editor' });
  await eventually(async () => assert.match((await row.textContent()) ?? '', /helix/));

  // Edit it there.
  await row.getByRole('button', { name: 'Edit fact' }).click();
  const value = section.getByLabel('Value');
  assert.equal(await value.inputValue(), 'helix');
  await value.fill('zed');
  await section.getByRole('button', { name: 'Save fact' }).click();
  await eventually(async () => assert.match((await row.textContent()) ?? '', /zed/));
  assert.doesNotMatch((await row.textContent()) ?? '', /helix/);

  // A secret is refused with Go's reason.
  await section.getByRole('button', { name: 'Add fact' }).click();
  await section.getByLabel('Key').fill('openai');
  await section.getByLabel('Value').fill('sk-proj-abcdefghijklmnopqrstuvwxyz0123');
  await section.getByRole('button', { name: 'Save fact' }).click();
  await eventually(async () =>
    assert.match((await section.getByRole('alert').textContent()) ?? '', /looks like a secret/),
  );
  await shot(page, 'settings-memory-refused', section);
  await section.getByRole('button', { name: 'Cancel' }).click();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'settings-memory', section);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // The next request carries the edited value.
  await sendMessage(page, '[facts] what do you remember');
  await waitForAgentText(page, 'Facts: favourite editor: zed (global)');

  // The conversation's memory panel shows it too.
  await page.getByRole('button', { name: 'Memory', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Conversation memory' });
  await eventually(async () => assert.match((await panel.textContent()) ?? '', /favourite editor\s*zed/));
  await shot(page, 'conversation-memory', page);
  await panel.getByRole('button', { name: 'Close memory' }).click();

  // Off, the next request carries no facts.
  const again = await openMemorySettings(page);
  await again.section.getByRole('switch', { name: 'Use memory' }).click();
  await eventually(async () =>
    assert.equal(await again.section.getByRole('switch', { name: 'Use memory' }).getAttribute('aria-checked'), 'false'),
  );
  await again.dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await sendMessage(page, '[facts] and now?');
  await waitForAgentText(page, 'Facts: none');
}));

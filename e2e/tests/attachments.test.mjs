// Attachments end to end: an image pasted into the composer and a text file
// dropped on the transcript become chips, checked and stored by Go; sent,
// they reach the scripted model (an image part and the file's text, which
// its [attachments] reply describes) and show in the transcript, also after
// a restart.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, openConversation, show, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('attachments');
before(() => stack.start());
after(() => stack.stop());

/** What the dropped file holds: the model's reply quotes its marker. */
const NOTES = '# Notes\n\nThe launch code word is PELICAN-42.\n';

/** Pastes a 64×48 PNG (drawn on a canvas) into the composer, as the clipboard of a screenshot tool would. */
function pasteImage(page) {
  return page.getByRole('textbox', { name: 'Message' }).evaluate(async (input) => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const g = canvas.getContext('2d');
    g.fillStyle = '#5b50e6';
    g.fillRect(0, 0, 64, 48);
    g.fillStyle = '#ffd400';
    g.fillRect(16, 12, 32, 24);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'image.png', { type: 'image/png' }));
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

/** Drags a text file over the transcript and drops it there. */
function dropTextFile(page, name, text) {
  return page.getByRole('log', { name: 'Conversation' }).evaluate(
    (log, [name, text]) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: 'text/markdown' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        log.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    },
    [name, text],
  );
}

/** The composer's chips as [name, what the chip says under it]. */
function chips(page) {
  return page
    .getByRole('list', { name: 'Attached files' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((li) => [
        li.querySelector('.attach-chip-name')?.textContent ?? '',
        (li.querySelector('.attach-chip-meta, .attach-chip-error')?.textContent ?? '').trim(),
      ]),
    );
}

/** The sent message's attachments, as shown in its bubble. */
async function shownAttachments(page, text) {
  const row = ui(page).log.locator('.row-user', { hasText: text });
  const image = row.getByRole('button', { name: 'View image.png' });
  await eventually(async () => {
    const img = image.getByRole('img', { name: 'image.png' });
    assert.match((await img.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    assert.equal(await img.evaluate((el) => el.complete && el.naturalWidth), 64, 'the image decodes, 64 px wide');
  }, { what: 'the sent image' });
  const file = row.getByRole('button', { name: /notes\.md/ });
  assert.match((await file.textContent()) ?? '', /notes\.md\s*\d+ bytes/);
  return { image, file };
}

test('a pasted image and a dropped text file go to the model with the message, and stay after a restart', { timeout: 180_000 }, stack.test(async (page) => {
  const u = ui(page);
  const PROMPT = '[attachments] what do these show?';

  await pasteImage(page);
  await dropTextFile(page, 'notes.md', NOTES);
  await eventually(async () => {
    const now = await chips(page);
    assert.deepEqual(now.map(([name]) => name).sort(), ['image.png', 'notes.md'], `chips: ${JSON.stringify(now)}`);
    for (const [name, meta] of now) assert.match(meta, /\d+ (bytes|KB)$/, `${name} accepted: ${meta}`);
  }, { what: 'both files accepted' });

  await u.input.fill(PROMPT);
  await u.send.click();
  await eventually(async () => assert.equal(await page.getByRole('list', { name: 'Attached files' }).count(), 0), {
    what: 'the chips to leave the composer once sent',
  });
  await waitForStatus(page, 'Completed', { timeout: 60_000 });

  // The model's request held an image part and the file's text: its reply says what it was given.
  await eventually(async () => {
    const items = await transcript(page);
    const reply = items.find((i) => i.kind === 'agent' && i.text.startsWith('Attachments seen:'));
    assert.ok(reply, `the [attachments] reply: ${show(items)}`);
    assert.match(reply.text, /1 image \(image\/png\)/);
    assert.match(reply.text, /text with PELICAN-42/);
  });
  await shownAttachments(page, PROMPT);

  await stack.restartApp({ signal: 'SIGTERM' });
  await openConversation(page, PROMPT);
  const { image } = await shownAttachments(page, PROMPT);

  // A click shows it larger, in a dialog named by the file; Esc closes it.
  await image.click();
  const viewer = page.getByRole('dialog', { name: 'image.png' });
  await eventually(async () => assert.equal(await viewer.getByRole('img', { name: 'image.png' }).count(), 1));
  await page.keyboard.press('Escape');
  await eventually(async () => assert.equal(await viewer.count(), 0));
}));

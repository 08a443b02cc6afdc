// A key is not sent to an address it was not saved for, and the person is
// told so where they look. A Custom server's key is saved for one address;
// the provider is then moved to this file's scripted server (which wants a
// key) keeping the key. The first message's task fails, and the window says
// once what happened and what to do, not the server's own "no key" words.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cards } from '../lib/agent.mjs';
import { Stack } from '../lib/harness.mjs';
import { sendMessage, waitForStatus } from '../lib/ui.mjs';

const SAVED_FOR = 'http://models.example/v1';
const stack = new Stack('withheld-key', { env: false, mockArgs: ['-api-key', 'sk-only-this-one-0000'] });
before(() => stack.start());
after(() => stack.stop());

test('a task refused for a withheld key says why and what to do, once', { timeout: 180_000 }, stack.test(async (page) => {
  await page.evaluate(
    async ({ savedFor, address }) => {
      const p = window.go.app.Providers;
      await p.SaveProvider({ preset: 'custom', baseUrl: savedFor, model: 'mock-model', apiKey: 'sk-mine-0123456789abcdef', keepKey: false });
      await p.SaveProvider({ preset: 'custom', baseUrl: address, model: 'mock-model', apiKey: '', keepKey: true });
    },
    { savedFor: SAVED_FOR, address: stack.mock.baseURL },
  );

  await sendMessage(page, 'hello');
  await waitForStatus(page, 'Failed', { timeout: 60_000 });
  const said =
    `The model server at ${stack.mock.baseURL} refused the request, which went without a key: ` +
    `the Custom (OpenAI-compatible) key saved here is for ${SAVED_FOR} and is never sent to another address. ` +
    'Enter a key for this address in Settings → Model provider.';
  const failed = cards(page).failed;
  await failed.waitFor();
  assert.ok(((await failed.textContent()) ?? '').includes(said), `the failure card: ${await failed.textContent()}`);
  const text = await page.evaluate(() => document.body.innerText);
  assert.equal(text.split('Enter a key for this address').length - 1, 1, `said once:\n${text}`);
  assert.doesNotMatch(text, /didn't provide an API key/, 'not the server\'s own words');
  assert.match(stack.mock.proc.lines.join('\n'), /rejected .*didn't provide an API key/, 'the request went without a key');
}));

// Switching conversations while a task runs: the other conversation works,
// the running one keeps streaming, and coming back shows it all once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import {
  countWords,
  eventually,
  openConversation,
  sendMessage,
  show,
  slowText,
  transcript,
  ui,
  waitForStatus,
} from '../lib/ui.mjs';

const A = '[slow] long one';
const B = '[complete] quick';
const stack = new Stack('switch');
before(() => stack.start());
after(() => stack.stop());

/** Checks A's transcript: one prompt, one consistent stream; returns its word count. */
async function checkA(page) {
  const items = await transcript(page);
  const prompts = items.filter((i) => i.kind === 'user');
  assert.deepEqual(
    prompts.map((i) => i.text),
    [A],
    `the prompt must appear exactly once: ${show(items)}`,
  );
  assert.equal(items.filter((i) => i.kind === 'agent').length, 1, `one agent bubble: ${show(items)}`);
  return countWords((await slowText(page)).text);
}

test('a task keeps running while another conversation is used', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);

  // Conversation A: a slow task.
  await sendMessage(page, A);
  const before = await eventually(
    async () => {
      const n = await checkA(page);
      assert.ok(n >= 5, `${n} words so far`);
      return n;
    },
    { what: 'A to stream some words' },
  );

  // Conversation B: a quick task, run to completion while A streams.
  await u.newConversation.click();
  await eventually(
    async () => {
      assert.equal((await u.title.textContent())?.trim(), 'New conversation');
      const items = await transcript(page);
      assert.deepEqual(items.filter((i) => i.kind !== 'other'), [], `a new conversation is empty: ${show(items)}`);
      assert.match((await u.log.textContent()) ?? '', /What should Errand do\?/);
      assert.equal(await u.input.isEnabled(), true);
    },
    { what: 'the new, empty conversation' },
  );
  assert.equal(await u.agentMode.isChecked(), true, 'a new conversation starts in agent mode');
  await sendMessage(page, B);
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      assert.deepEqual(
        items,
        [
          { kind: 'user', text: B },
          { kind: 'agent', text: 'Working on it.' },
          { kind: 'update', text: 'Halfway there' },
          { kind: 'agent', text: 'All done.' },
          { kind: 'complete', text: 'Finished the e2e task' },
        ],
        `B's transcript (nothing of A may leak in): ${show(items)}`,
      );
    },
    { what: "B's task to complete" },
  );

  // The sidebar: A is working, B is not.
  await eventually(
    async () => {
      assert.match((await u.row(A).textContent()) ?? '', /Working/, 'A has the live indicator');
      assert.doesNotMatch((await u.row(B).textContent()) ?? '', /Working/, 'B has no live indicator');
      assert.equal(await u.row(A).locator('.live-dot').count(), 1);
    },
    { what: 'the sidebar marks' },
  );

  // Back to A: what streamed meanwhile is there, once, and it goes on.
  await openConversation(page, A);
  const back = await eventually(
    async () => {
      const n = await checkA(page);
      assert.ok(n > before, `A shows ${n} words, no more than the ${before} it had when we left`);
      return n;
    },
    { what: "A's text streamed meanwhile" },
  );
  let last = back;
  await eventually(
    async () => {
      const n = await checkA(page);
      assert.ok(n >= last, `the text went back from ${last} to ${n} words`);
      last = n;
      assert.ok(n >= back + 20, `A has ${n} words, not yet ${back + 20}`);
    },
    { what: 'A to keep streaming' },
  );
  assert.ok(last < 400, `A finished (${last} words) before we could stop it`);
  await waitForStatus(page, /^(Working|Thinking|Planning|Writing)…/, { timeout: 1 });

  await u.stop.click();
  await waitForStatus(page, 'Stopped');
  await eventually(async () => {
    const items = await transcript(page);
    assert.deepEqual(
      items.filter((i) => i.kind === 'notice').map((i) => i.text.trim()),
      ['Stopped by user'],
      `transcript: ${show(items)}`,
    );
    await checkA(page);
    assert.doesNotMatch((await u.row(A).textContent()) ?? '', /Working/, 'A has no live indicator any more');
  });
}));

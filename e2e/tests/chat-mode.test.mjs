// Chat mode: one plain chat reply, no agent loop; the mode is kept per conversation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import {
  conversationIdByTitle,
  eventually,
  loadStored,
  openConversation,
  sendMessage,
  show,
  transcript,
  ui,
  waitForStatus,
} from '../lib/ui.mjs';

const PROMPT = 'hello there';
const stack = new Stack('chat-mode');
before(() => stack.start());
after(() => stack.stop());

test('with agent mode off a message gets one chat reply, and the toggle is remembered', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  assert.equal(await u.agentMode.isChecked(), true, 'agent mode is on by default');
  await u.agentMode.uncheck();
  await eventually(async () => {
    assert.equal(await u.agentMode.isChecked(), false);
    assert.equal(await u.agentMode.isEnabled(), true, 'the toggle is enabled once Go has stored it');
    assert.equal(await u.input.getAttribute('placeholder'), 'Send a message…');
  });

  await sendMessage(page, PROMPT);
  await waitForStatus(page, 'Replied');
  await eventually(
    async () => {
      const items = (await transcript(page)).map(({ kind, text }) => ({ kind, text: text.trim() }));
      assert.deepEqual(
        items,
        [
          { kind: 'user', text: PROMPT },
          { kind: 'agent', text: `Echo: ${PROMPT}` },
        ],
        `transcript: ${show(items)}`,
      );
    },
    { what: 'the chat reply' },
  );

  // No loop: Go stored exactly the prompt and one reply, in one chat task,
  // and the request had no tools (else the mock would not have echoed).
  const id = await conversationIdByTitle(page, PROMPT);
  const stored = await loadStored(page, id);
  assert.deepEqual(
    stored.messages.map((m) => [m.role, m.content, (m.toolCalls ?? []).length]),
    [
      ['user', PROMPT, 0],
      ['assistant', `Echo: ${PROMPT}`, 0],
    ],
  );
  assert.deepEqual(
    stored.tasks.map((t) => [t.mode, t.status, t.stepCount]),
    [['chat', 'completed', 1]],
  );
  assert.equal(stored.conversation.mode, 'chat');

  // Another conversation has its own setting…
  await u.newConversation.click();
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'));
  assert.equal(await u.agentMode.isChecked(), true, 'a new conversation starts in agent mode');

  // …and the first one kept its own.
  await openConversation(page, PROMPT);
  await eventually(async () => assert.equal(await u.agentMode.isChecked(), false, 'agent mode stayed off'));
  assert.equal(await u.input.getAttribute('placeholder'), 'Send a message…');

  // It is stored: still off after a reload.
  await stack.open({ reload: true });
  await openConversation(page, PROMPT);
  await eventually(async () => assert.equal(await u.agentMode.isChecked(), false, 'agent mode is off after a reload'));
}));

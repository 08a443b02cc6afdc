// An exam agent that hides the history (made in Settings → Agents): the
// person sees only the current question, a new question replaces the old
// on screen, and no Stop button shows; the stored conversation and its JSON
// export keep everything. On the offline demo model, whose Quiz script
// answers any agent whose instructions begin as Quiz's do.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, newConversation, show, transcript, ui } from '../lib/ui.mjs';

const stack = new Stack('exam', { env: false });
before(() => stack.start());
after(() => stack.stop());

async function questions(page) {
  return (await transcript(page)).filter((i) => i.kind === 'question').map((i) => i.text.trim());
}

async function createExam(page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('region', { name: 'Agents' });
  await section.getByRole('button', { name: 'New agent', exact: true }).click();
  const form = section.getByRole('form', { name: 'New agent' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Exam');
  await form.getByRole('textbox', { name: 'Instructions' }).fill('You are Quiz, set as an exam: one question at a time.');
  await form.getByRole('combobox', { name: 'Chat mode' }).selectOption('proactive');
  await form.getByRole('checkbox', { name: 'Show the conversation before the current question' }).uncheck();
  await form.getByRole('checkbox', { name: 'Show the Stop (End conversation) button' }).uncheck();
  await form.getByRole('button', { name: 'Save agent' }).click();
  await section.getByRole('button', { name: 'Edit Exam' }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

test('an exam agent shows only the current question; the stored conversation and the export keep every one', { timeout: 180_000 }, stack.test(async (page) => {
  await createExam(page);
  const u = ui(page);
  await newConversation(page);
  await page.getByRole('combobox', { name: 'Agent', exact: true }).selectOption({ label: 'Exam · speaks first' });
  await eventually(async () => assert.deepEqual(await questions(page), ['Which topic should I quiz you on?']), { what: 'the first question' });
  assert.equal(await page.getByRole('button', { name: /^(Stop|End conversation)$/ }).count(), 0, 'the agent hides the End button');

  await u.choices.getByRole('button', { name: 'Geography', exact: true }).click();
  await eventually(async () => assert.deepEqual(await questions(page), ['Question 1 of 3: What is the capital of Australia?']), { what: 'the second question alone' });
  await u.choices.getByRole('button', { name: 'Canberra', exact: true }).click();
  await eventually(async () => assert.deepEqual(await questions(page), ['Question 2 of 3: Which is the longest river?']), { what: 'the third question alone' });
  const items = await transcript(page);
  assert.ok(!items.some((i) => /capital of Australia|Which topic/.test(i.text)), `the old questions are gone from the screen: ${show(items)}`);
  assert.ok(items.some((i) => i.kind === 'agent' && /Right!/.test(i.text)), `the verdict on the last answer shows with the new question: ${show(items)}`);
  assert.equal(await page.getByRole('button', { name: 'Load earlier messages' }).count(), 0);
  await fs.mkdir('artifacts', { recursive: true });
  await page.screenshot({ path: 'artifacts/exam-hidden-history.png' });

  // Everything is stored, and the JSON export holds every question.
  const asked = [
    'Which topic should I quiz you on?',
    'Question 1 of 3: What is the capital of Australia?',
    'Question 2 of 3: Which is the longest river?',
  ];
  const id = await page.evaluate(async () => (await window.go.app.Conversations.ListConversations()).find((c) => c.agentId === 'exam').id);
  const stored = await page.evaluate((cid) => window.go.app.Conversations.LoadConversation(cid), id);
  const storedQuestions = stored.messages.flatMap((m) => m.toolCalls ?? []).filter((c) => c.name === 'ask_user').map((c) => JSON.parse(c.arguments).question);
  assert.deepEqual(storedQuestions, asked);
  const file = path.join(os.tmpdir(), `errand-exam-${process.pid}.json`);
  await page.evaluate((p) => window.go.app.DevDialogs.AnswerNext(p), file);
  await page.evaluate(({ cid }) => window.go.app.Archive.ExportConversation(cid, 'json'), { cid: id });
  const exported = await fs.readFile(file, 'utf8');
  await fs.rm(file, { force: true });
  for (const q of asked) assert.ok(exported.includes(q), `the export holds ${q}`);
  assert.ok(exported.includes('Canberra'), 'and the answers');
}));

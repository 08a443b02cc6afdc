// How the tests see and drive Errand's UI: locators by accessible role and
// name where the app has them, a structured read of the transcript, and
// waiting helpers that retry an assertion until it holds.
import assert from 'node:assert/strict';
import { TIMEOUT } from './harness.mjs';

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Retries fn (which throws, e.g. an assertion, until the condition holds)
 * until it returns without throwing; then returns its result. On timeout
 * the last error is thrown, so the failure says what was last seen.
 * Without an interval the retries back off, from 50 ms to 400 ms apart:
 * each one asks the browser, and a long wait (a task that streams for
 * seconds) need not ask ten times a second.
 */
export async function eventually(fn, { timeout = TIMEOUT, interval, what = '' } = {}) {
  const deadline = Date.now() + timeout;
  let lastErr;
  let wait = interval ?? 50;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() >= deadline) break;
    await delay(Math.min(wait, Math.max(0, deadline - Date.now())));
    if (interval === undefined) wait = Math.min(wait * 1.5, 400);
  }
  const prefix = `timed out after ${timeout} ms${what ? ` waiting for ${what}` : ''}`;
  if (lastErr instanceof Error) {
    const original = lastErr.message;
    lastErr.message = `${prefix}; last attempt: ${original}`;
    if (typeof lastErr.stack === 'string') lastErr.stack = lastErr.stack.replace(original, lastErr.message);
    throw lastErr;
  }
  throw new Error(`${prefix}: ${lastErr}`);
}

/** The app's controls, by accessible role and name. */
export function ui(page) {
  const sidebar = page.getByRole('complementary', { name: 'Conversations' });
  const convList = page.getByRole('navigation', { name: 'Conversation list' });
  return {
    input: page.getByRole('textbox', { name: 'Message' }),
    send: page.getByRole('button', { name: 'Send', exact: true }),
    stop: page.getByRole('button', { name: 'Stop', exact: true }),
    reply: page.getByRole('button', { name: 'Reply', exact: true }),
    // An untitled conversation's row is also named "New conversation", so
    // take the button outside the list.
    newConversation: sidebar
      .getByRole('button', { name: 'New conversation', exact: true })
      .and(page.locator(':not(nav *)')),
    mode: page.getByRole('radiogroup', { name: 'Mode' }),
    /** The Mode radio group's Agent option, as the old on/off switch: unchecking picks Chat. */
    agentMode: agentSwitch(page),
    status: page.getByRole('status'),
    log: page.getByRole('log', { name: 'Conversation' }),
    choices: page.getByRole('group', { name: 'Suggested answers' }),
    title: page.getByRole('heading', { level: 1 }),
    convList,
    /** The sidebar row of the conversation whose title starts with title. */
    row: (title) => convList.getByRole('button', { name: new RegExp(`^${escapeRe(title)}`) }),
  };
}

/** The Mode control as an on/off switch for Agent (off is Chat), for the tests written for the old switch. */
function agentSwitch(page) {
  const option = (name) => page.getByRole('radiogroup', { name: 'Mode' }).getByRole('radio', { name, exact: true });
  return {
    isChecked: () => option('Agent').isChecked(),
    isEnabled: () => option('Agent').isEnabled(),
    check: () => option('Agent').check(),
    uncheck: () => option('Chat').check(),
  };
}

export function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The transcript as shown, in order: [{kind, text}] with kind one of
 * user, answer, agent, update, question, complete, notice, tool, decision,
 * thinking (a reply's Thinking block), other. agent items also say whether they are still streaming. A reply
 * the conversation's own mode decided has no decision item.
 */
export function transcript(page) {
  return page.getByRole('log', { name: 'Conversation' }).evaluate((log) =>
    Array.from(log.children).filter((el) => !el.classList.contains('is-empty')).map((el) => {
      const text = (sel) => el.querySelector(sel)?.textContent ?? '';
      if (el.querySelector('.bubble-answer')) return { kind: 'answer', text: text('.text') };
      if (el.querySelector('.bubble-user')) return { kind: 'user', text: text('.text') };
      if (el.querySelector('.bubble-agent')) {
        return { kind: 'agent', text: text('.text'), streaming: !!el.querySelector('.is-streaming') };
      }
      if (el.querySelector('.bubble-update')) return { kind: 'update', text: text('.text') };
      if (el.querySelector('.card-question')) return { kind: 'question', text: text('.text') };
      if (el.querySelector('.card-complete')) return { kind: 'complete', text: text('.text') };
      // A notice row wraps its notice (and the files its task changed, when it ended the task).
      const notice = el.classList.contains('notice-row') ? el : el.querySelector(':scope > .notice-row');
      if (notice) return { kind: 'notice', text: notice.textContent ?? '' };
      if (el.classList.length === 0 && el.firstElementChild?.classList.contains('tool-row')) {
        return { kind: 'tool', text: el.firstElementChild.textContent ?? '' };
      }
      if (el.classList.contains('decision-row')) return { kind: 'decision', text: el.textContent ?? '' };
      if (el.classList.contains('tool-row')) return { kind: 'tool', text: el.textContent ?? '' };
      if (el.classList.contains('thinking-row')) return { kind: 'thinking', text: el.textContent ?? '' };
      return { kind: 'other', text: el.textContent ?? '' };
    }),
  );
}

/** A compact one-line form of a transcript, for assertion messages. */
export function show(items) {
  return JSON.stringify(items.map((i) => `${i.kind}: ${i.text.length > 60 ? `${i.text.slice(0, 60)}…` : i.text}`));
}

/** The status line's main text ("Completed", "Stopped", …). */
export async function statusText(page) {
  return ((await ui(page).status.locator('.status-text').textContent()) ?? '').trim();
}

/** Waits until the status line's text matches re (a RegExp or exact string). */
export function waitForStatus(page, expected, opts = {}) {
  return eventually(
    async () => {
      const s = await statusText(page);
      if (expected instanceof RegExp) assert.match(s, expected, `status line: ${JSON.stringify(s)}`);
      else assert.equal(s, expected, `status line: ${JSON.stringify(s)}`);
      return s;
    },
    { what: `the status ${expected}`, ...opts },
  );
}

/** Types text into the composer and clicks Send. */
export async function sendMessage(page, text) {
  const u = ui(page);
  await u.input.fill(text);
  await u.send.click();
  // The draft is cleared once Go has accepted the message.
  await eventually(async () => assert.equal(await u.input.inputValue(), '', 'the composer keeps the draft'), {
    what: 'the message to be accepted',
  });
}

/**
 * Checks that streamed text is the mock's word1 word2 … wordN with nothing
 * repeated or skipped (a partial last word is allowed while streaming);
 * returns N, the number of complete words.
 */
export function countWords(text) {
  const words = text.trim() === '' ? [] : text.trim().split(/\s+/);
  words.forEach((w, i) => {
    const want = `word${i + 1}`;
    const last = i === words.length - 1;
    assert.ok(
      w === want || (last && want.startsWith(w)),
      `streamed word ${i + 1} is ${JSON.stringify(w)}, not ${want}, in ${JSON.stringify(text.slice(0, 300))}…`,
    );
  });
  const lastWhole = words.length > 0 && words[words.length - 1] === `word${words.length}`;
  return lastWhole ? words.length : Math.max(0, words.length - 1);
}

/** The one agent bubble of the slow stream (asserting there is exactly one). */
export async function slowText(page) {
  const items = await transcript(page);
  const agents = items.filter((i) => i.kind === 'agent' && /^\s*word/.test(i.text));
  assert.equal(agents.length, 1, `expected one streamed agent bubble, got ${show(items)}`);
  return agents[0];
}

/** The id of the conversation with this title, from the bound Go service. */
export async function conversationIdByTitle(page, title) {
  const list = await page.evaluate(() => window.go.app.Conversations.ListConversations());
  const hits = (list ?? []).filter((c) => c.title === title);
  assert.equal(hits.length, 1, `conversations titled ${JSON.stringify(title)}: ${JSON.stringify(list)}`);
  return hits[0].id;
}

/** What Go has stored for a conversation (messages and tasks). */
export function loadStored(page, id) {
  return page.evaluate((cid) => window.go.app.Conversations.LoadConversation(cid), id);
}

/** Opens the conversation with this title from the sidebar (if it is not open). */
export async function openConversation(page, title) {
  const u = ui(page);
  const row = u.row(title);
  await row.waitFor({ state: 'visible' });
  if ((await row.getAttribute('aria-current')) !== 'true') await row.click();
  await eventually(
    async () => {
      assert.equal(await row.getAttribute('aria-current'), 'true', 'the row is not selected');
      assert.equal((await u.title.textContent())?.trim(), title, 'the chat header');
    },
    { what: `the conversation ${JSON.stringify(title)} to open` },
  );
}

/** Starts a new conversation and waits until the window shows it (a picker used before then is the last one's). */
export async function newConversation(page) {
  const u = ui(page);
  await u.newConversation.click();
  await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'), {
    what: 'the new conversation to open',
  });
}

/** The task updates this page received for a task, in arrival order. */
export function taskEvents(page, taskId) {
  return page.evaluate((id) => (window.__e2eTaskEvents ?? []).filter((e) => e.id === id), taskId);
}

/** The active task of the conversation with this title, as Go reports it. */
export async function backendActiveTask(page, title) {
  const list = await page.evaluate(() => window.go.app.Conversations.ListConversations());
  const conv = (list ?? []).find((c) => c.title === title);
  assert.ok(conv, `no conversation titled ${JSON.stringify(title)} in ${JSON.stringify(list)}`);
  return conv.activeTask;
}

/**
 * True when the page received a stale update after a task's waiting_user:
 * before the question is answered Go emits nothing more for the task, so
 * a later non-waiting update can only be an earlier one delivered late.
 * (The dev server writes each event to the websocket from its own
 * goroutine, so events can overtake each other; the desktop app's webview
 * gets them in order.)
 */
export function reorderedAfterWaiting(events) {
  const i = events.findIndex((e) => e.status === 'waiting_user');
  return i >= 0 && events.slice(i + 1).some((e) => e.status !== 'waiting_user');
}

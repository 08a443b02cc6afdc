// A conversation of 10,000 messages (seeded into the database through the
// real store package, e2e/seed) opens with its latest messages, keeps the
// DOM small, loads older pages as the person scrolls up, without moving
// what they are reading; Home shows the very first message at once, the
// way down from it scrolls without blank screens, and End shows the latest
// again. The conversation list, 300 more conversations, comes in pages
// too, and its search runs in Go. How fast is measured by
// `make bench` (docs/BENCHMARKS.md), never asserted here: these machines
// are shared.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, ui } from '../lib/ui.mjs';

const TITLE = 'Ten thousand messages';
const MESSAGES = 10_000;
const TASKS = MESSAGES / 5;
const FILLERS = 300;
/** The messages a conversation opens with (frontend/src/api MESSAGE_PAGE). */
const FIRST_PAGE = 100;
/** A virtualized list keeps a screenful of rows, not ten thousand. */
const MAX_ROWS_IN_DOM = 150;

const stack = new Stack('long', { seed: ['-messages', String(MESSAGES), '-title', TITLE, '-fillers', String(FILLERS)] });
before(() => stack.start());
after(() => stack.stop());

/** The first numbered row wholly below the viewport's top: its text and its top, in px from there. */
function topRow(page) {
  return page.evaluate(() => {
    const scroller = document.querySelector('[role=region][aria-label="Messages"]');
    const log = document.querySelector('[role=log]');
    const box = scroller.getBoundingClientRect();
    // A row with a number in it: its text is unique (a tool's "ok" is not).
    for (const el of Array.from(log.children)) {
      const r = el.getBoundingClientRect();
      if (r.top >= box.top && r.height > 0 && /\d/.test(el.textContent ?? '')) return { text: el.textContent ?? '', top: r.top - box.top };
    }
    return { text: '', top: 0 };
  });
}

/** Where the row with this text is now (px from the viewport's top), or null if it is not rendered. */
function rowTop(page, text) {
  return page.evaluate((text) => {
    const scroller = document.querySelector('[role=region][aria-label="Messages"]');
    const log = document.querySelector('[role=log]');
    const el = Array.from(log.children).find((c) => c.textContent === text);
    return el ? el.getBoundingClientRect().top - scroller.getBoundingClientRect().top : null;
  }, text);
}

/**
 * Waits until the transcript is still: its scroll position and its rows'
 * places the same over a few frames (a wheel's scroll, a page's rows
 * measured, the view corrected), however slow the machine.
 */
function settled(page) {
  const place = () =>
    page.evaluate(
      () =>
        new Promise((resolve) => {
          const read = () => {
            const scroller = document.querySelector('[role=region][aria-label="Messages"]');
            const first = document.querySelector('[role=log]')?.firstElementChild;
            return `${scroller?.scrollTop}:${scroller?.scrollHeight}:${first?.getBoundingClientRect().top}`;
          };
          const before = read();
          let frames = 0;
          const tick = () => (++frames < 5 ? requestAnimationFrame(tick) : resolve(before === read()));
          requestAnimationFrame(tick);
        }),
    );
  return eventually(async () => assert.ok(await place(), 'the transcript is still moving'), { what: 'the transcript to be still' });
}

/** Texts of the rows that are at least partly inside the scroller's viewport. */
function visibleRows(page) {
  return page.evaluate(() => {
    const scroller = document.querySelector('[role=region][aria-label="Messages"]');
    const log = document.querySelector('[role=log]');
    if (!scroller || !log) return { rows: [], inDom: 0 };
    const box = scroller.getBoundingClientRect();
    const rows = Array.from(log.children).filter((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > box.top && r.top < box.bottom && r.height > 0;
    });
    return { rows: rows.map((el) => el.textContent ?? ''), inDom: log.childElementCount, items: Number(log.dataset.items) };
  });
}

/**
 * Scrolls up from the bottom of the open long conversation (which opened
 * with `opened` rows) until older pages are read, then asks for one more
 * page with the rows in view: the row being read stays where it is and the
 * transcript shows rows.
 */
async function olderPagesKeepThePlace(page, t, opened) {
  // Scrolling up reads older pages; what the person reads stays in place.
  const scroller = page.getByRole('region', { name: 'Messages' });
  const box0 = await scroller.boundingBox();
  await page.mouse.move(box0.x + box0.width / 2, box0.y + box0.height / 2);
  // Each try scrolls further up, until an older page has been read.
  await eventually(
    async () => {
      await page.mouse.wheel(0, -800);
      const grown = await visibleRows(page);
      assert.ok(grown.items > opened, `scrolling up read older messages: ${grown.items} rows`);
    },
    { what: 'older messages read by scrolling up' },
  );
  // Steady: a row in view when a page arrives stays at the same place.
  // (The page is asked for with the top button's click, from the middle of
  // what is loaded, so nothing else moves the view meanwhile.)
  const loadEarlier = page.getByRole('button', { name: 'Load earlier messages' });
  await loadEarlier.waitFor({ state: 'attached' });
  await page.mouse.wheel(0, 2_000);
  await settled(page);
  const anchor = await topRow(page);
  assert.ok(anchor.text, 'a numbered row is in view');
  const before = (await visibleRows(page)).items;
  await loadEarlier.evaluate((el) => el.click());
  await eventually(async () => assert.ok((await visibleRows(page)).items > before, 'a page was prepended'), { what: 'the next older page' });
  await settled(page);
  const now = await rowTop(page, anchor.text);
  assert.notEqual(now, null, `"${anchor.text}" is still rendered`);
  assert.ok((await visibleRows(page)).rows.length > 0, 'the transcript is not blank');
  t.diagnostic(`a page arrived above: "${anchor.text.slice(0, 30)}" moved ${(now - anchor.top).toFixed(1)} px`);
  assert.ok(Math.abs(now - anchor.top) <= 4, `the row in view moved ${now - anchor.top} px`);
}

test('a 10,000-message conversation opens quickly and scrolls smoothly', { timeout: 180_000 }, stack.test(async (page, t) => {
  const u = ui(page);
  const row = u.row(TITLE);
  await row.waitFor({ state: 'visible' });
  // Start from another conversation, then open the long one and time it.
  if ((await row.getAttribute('aria-current')) === 'true') {
    await u.newConversation.click();
    await eventually(async () => assert.equal((await u.title.textContent())?.trim(), 'New conversation'));
  }
  const t0 = Date.now();
  await row.click();
  const last = u.log.getByText(`Finished task #${TASKS}`, { exact: true });
  await last.waitFor({ state: 'visible', timeout: 30_000 });
  const openMs = Date.now() - t0;
  t.diagnostic(`opened ${MESSAGES} messages in ${openMs} ms`);

  // At the bottom, the newest in view; only the latest page was read, and
  // the DOM holds only a window of it.
  const atEnd = await visibleRows(page);
  // (Rows are the transcript's items: a message may show as a few.)
  assert.ok(atEnd.items <= FIRST_PAGE * 4, `the list opened with ${atEnd.items} rows`);
  assert.ok(atEnd.inDom < MAX_ROWS_IN_DOM, `${atEnd.inDom} rows in the DOM`);
  assert.ok(atEnd.rows.some((r) => r.includes(`Finished task #${TASKS}`)), `in view: ${JSON.stringify(atEnd.rows)}`);
  assert.equal(await page.getByRole('button', { name: /Jump to latest/ }).count(), 0);

  await olderPagesKeepThePlace(page, t, atEnd.items);

  // Home: the very first message at once, a hundred pages back (its page
  // replaces the window; newer pages load on the way down).
  const scroller = page.getByRole('region', { name: 'Messages' });
  await scroller.focus();
  const t1 = Date.now();
  await page.keyboard.press('Home');
  await eventually(async () => {
    const top = await visibleRows(page);
    assert.ok(top.rows.some((r) => r.includes('Task #1: summarise report 1')), `in view: ${JSON.stringify(top.rows.slice(0, 2))} of ${top.items}`);
    assert.ok(top.inDom < MAX_ROWS_IN_DOM, `${top.inDom} rows in the DOM`);
  }, { what: 'the first message after Home' });
  const all = await visibleRows(page);
  t.diagnostic(`reached the first message (${all.items} rows held) in ${Date.now() - t1} ms`);
  assert.ok(all.items <= FIRST_PAGE * 4, `Home read one page, not every page: ${all.items} rows`);
  assert.equal(await page.getByRole('button', { name: /earlier messages/ }).count(), 0, 'nothing earlier to load');
  const jump = page.getByRole('button', { name: /Jump to latest/ });
  await jump.waitFor({ state: 'visible' });

  // Wheel down through a good part of it, recording frame times; every
  // step must show rows (no blank viewport).
  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__frames.length < 100_000 && !window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = await scroller.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const seen = new Set();
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, 1_500);
    await page.waitForTimeout(16);
    if (i % 5 === 4) {
      const now = await visibleRows(page);
      assert.ok(now.rows.length > 0, `blank viewport after ${i + 1} wheel steps`);
      for (const r of now.rows) {
        const m = /Task #(\d+):/.exec(r);
        if (m) seen.add(Number(m[1]));
      }
    }
  }
  const frames = await page.evaluate(() => {
    window.__stopFrames = true;
    return window.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? 0;
  const worst = sorted[sorted.length - 1] ?? 0;
  t.diagnostic(`scrolled past tasks up to #${Math.max(...seen)}; ${frames.length} frames, p95 ${p95.toFixed(1)} ms, worst ${worst.toFixed(1)} ms`);
  assert.ok(Math.max(...seen) > 50, `scrolling reached task #${Math.max(...seen)}`);

  // End brings the newest back (as Jump to latest does).
  await scroller.focus();
  await page.keyboard.press('End');
  await last.waitFor({ state: 'visible' });
  await eventually(async () => {
    const end = await visibleRows(page);
    assert.ok(end.rows.some((r) => r.includes(`Finished task #${TASKS}`)), `in view: ${JSON.stringify(end.rows)}`);
    assert.equal(await jump.count(), 0, 'Jump to latest is gone at the bottom');
  }, { what: 'the bottom after Jump to latest' });
}));

test('the conversation list comes in pages as it scrolls, and its search runs in Go', { timeout: 120_000 }, stack.test(async (page, t) => {
  const u = ui(page);
  await stack.open({ reload: true });
  await u.row(TITLE).waitFor({ state: 'visible' });
  const count = async () => Number(await u.convList.locator('ul').getAttribute('data-count'));
  const first = await count();
  assert.ok(first < FILLERS / 2, `the list opened with ${first} of ${FILLERS + 2} conversations`);

  // Scrolled to its end again and again, the list reads page after page,
  // down to the oldest conversation.
  // A row is named by its title, then its marks ("Agent: Errand"…).
  const rowNamed = (title) => u.convList.getByRole('button', { name: new RegExp(`^${title}(?!\\d)`) });
  const oldest = rowNamed('Filler conversation 1');
  const t0 = Date.now();
  await eventually(async () => {
    await u.convList.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    assert.ok(await oldest.isVisible(), `${await count()} conversations listed`);
  }, { what: 'the oldest conversation at the end of the list', timeout: 60_000 });
  t.diagnostic(`listed ${await count()} conversations, page by page, in ${Date.now() - t0} ms`);
  assert.ok((await count()) >= FILLERS + 1);
  assert.equal(await u.convList.getByRole('button', { name: 'Load more' }).count(), 0, 'nothing more to load');

  // The search box asks Go: one match, found among all of them.
  const search = page.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill('conversation 123');
  await eventually(async () => {
    assert.equal(await count(), 1);
    assert.ok(await rowNamed('Filler conversation 123').isVisible());
  }, { what: 'the one match' });
  await search.fill('no such title');
  await page.getByText('No conversations match.').waitFor({ state: 'visible' });
  await search.fill('');
  await eventually(async () => assert.ok((await count()) >= FILLERS + 1, `${await count()} listed`), { what: 'the whole list back' });
}));

// For a person whose system asks for reduced motion (a page of its own, so
// the tests above keep the default): older pages come in without moving the
// row being read or blanking the transcript. (A transition of every
// property, the stylesheet's reduced-motion rule once, left the list's new
// height a frame late: the view jumped by the page's height, onto nothing.)
test('with reduced motion, older pages keep the row being read in place', { timeout: 120_000 }, stack.test(async (_, t) => {
  await stack.reopen({ reducedMotion: 'reduce' });
  const page = stack.page;
  assert.ok(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches), 'the page asks for reduced motion');
  const u = ui(page);
  await u.row(TITLE).click();
  await u.log.getByText(`Finished task #${TASKS}`, { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
  await olderPagesKeepThePlace(page, t, (await visibleRows(page)).items);
}));

// A conversation of 10,000 messages (seeded into the database through the
// real store package, e2e/seed) opens, keeps the DOM small, and scrolls end
// to end without blank screens. How fast is measured by `make bench`
// (docs/BENCHMARKS.md), never asserted here: these machines are shared.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BIN_DIR, ROOT, Stack } from '../lib/harness.mjs';
import { eventually, ui } from '../lib/ui.mjs';

const TITLE = 'Ten thousand messages';
const MESSAGES = 10_000;
const TASKS = MESSAGES / 5;
/** A virtualized list keeps a screenful of rows, not ten thousand. */
const MAX_ROWS_IN_DOM = 150;

const stack = new Stack('long');
before(async () => {
  await stack.start();
  // Seed next to the running app (SQLite lets two processes share the
  // file); the page then reloads to list it.
  const bin = path.join(BIN_DIR, 'e2e-seed');
  const [file, args] = existsSync(bin) ? [bin, []] : ['go', ['run', './e2e/seed']];
  execFileSync(file, [...args, '-dir', stack.dataDir, '-messages', String(MESSAGES), '-title', TITLE], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 120_000,
  });
});
after(() => stack.stop());

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

test('a 10,000-message conversation opens quickly and scrolls smoothly', { timeout: 180_000 }, stack.test(async (page, t) => {
  const u = ui(page);
  await stack.open({ reload: true });
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

  // At the bottom, the newest in view; the DOM holds only a window of rows.
  const atEnd = await visibleRows(page);
  assert.ok(atEnd.items >= MESSAGES * 0.8, `the list has ${atEnd.items} rows`);
  assert.ok(atEnd.inDom < MAX_ROWS_IN_DOM, `${atEnd.inDom} rows in the DOM`);
  assert.ok(atEnd.rows.some((r) => r.includes(`Finished task #${TASKS}`)), `in view: ${JSON.stringify(atEnd.rows)}`);
  assert.equal(await page.getByRole('button', { name: /Jump to latest/ }).count(), 0);

  // Home: the very first message.
  const scroller = page.getByRole('region', { name: 'Messages' });
  await scroller.focus();
  await page.keyboard.press('Home');
  await eventually(async () => {
    const top = await visibleRows(page);
    assert.ok(top.rows.some((r) => r.includes('Task #1: summarise report 1')), `in view: ${JSON.stringify(top.rows)}`);
    assert.ok(top.inDom < MAX_ROWS_IN_DOM, `${top.inDom} rows in the DOM`);
  }, { what: 'the first message after Home' });
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

  // End and Jump to latest bring the newest back.
  await jump.click();
  await last.waitFor({ state: 'visible' });
  await eventually(async () => {
    const end = await visibleRows(page);
    assert.ok(end.rows.some((r) => r.includes(`Finished task #${TASKS}`)), `in view: ${JSON.stringify(end.rows)}`);
    assert.equal(await jump.count(), 0, 'Jump to latest is gone at the bottom');
  }, { what: 'the bottom after Jump to latest' });
}));

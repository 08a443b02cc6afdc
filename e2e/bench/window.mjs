// Window benchmarks in a real Chromium against the dev build (errand-dev
// serving the built frontend and the Go bindings over HTTP and a
// websocket) and build/bin/benchmodel streaming 1,000 tokens a second.
//
//   stop  Stop clicked mid-stream → "Stopped" in the status line: in the
//         page, from the click event's timestamp to the MutationObserver
//         seeing the text, and to the frame that shows it (the first
//         requestAnimationFrame after the change, then a task after it).
//   ui    With a seeded history: load → the 10,000-message conversation
//         painted; reopening it from the sidebar; the longest main-thread
//         task (PerformanceObserver "longtask") and longest frame gap while
//         a task streams at 1,000 tokens/s, in it and in a new conversation;
//         agent:messageDelta events reaching the page, per second and bytes;
//         and the memory of Chromium's processes showing it (the "simplest
//         alternative": the same UI in a browser engine of its own, as an
//         Electron app ships it).
//   long  A 5 MB Markdown reply streamed as fast as the model server
//         allows: the time until it is completed and shown to its last
//         line, the longest main-thread task meanwhile, and Stop clicked at
//         25%, 50% and 75% of such a reply shown → "Stopped" shown.
//   branch A 10,000-message conversation (300 with --smoke) whose first
//         message has two versions, each continued by the whole
//         conversation (e2e/bench/seed -fork): "Next version" and
//         "Previous version" clicked on it, each time from the click to the
//         other branch's last message painted, and to ShowVersion's reply.
//
// Run under Xvfb (run.sh does):
//   node e2e/bench/window.mjs [--smoke] [--out file] [--parts stop,ui,long,branch]
//        [--seeded DIR] [--assetdir frontend/dist] [--profile] [--stops N] [--trace PREFIX]
//
// --profile prints where the page's main thread spent its time (CDP CPU
// profile, self time by function) during the start and each stream; use it
// with an unminified build (vite build --minify false) as --assetdir.
// --trace PREFIX writes a Chromium trace of each Stop of the long reply to
// PREFIX-25.json (…-50, …-75): its tasks, style, layout, paint and commit,
// with a "bench: in the DOM" mark where "Stopped" appeared.
import { chromium } from 'playwright-core';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import {
  BIN,
  CHROMIUM,
  CHROMIUM_ARGS,
  delay,
  emit,
  footprint,
  percentile,
  setOut,
  startDevApp,
  startModel,
  treeMemory,
  waitIdle,
  args as parseArgs,
} from './lib.mjs';

const opt = parseArgs({
  smoke: false,
  out: '',
  parts: 'stop,ui,long,branch',
  seeded: '',
  assetdir: 'frontend/dist',
  prefix: 'window',
  profile: false,
  stops: '',
  trace: '',
});
setOut(opt.out);
const parts = new Set(opt.parts.split(','));
const P = opt.prefix;

/** In-page instrumentation, installed before the app's scripts run. */
function instrument() {
  const b = (window.__bench = { longtasks: [], deltas: [], frames: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });

  /** Resolves with times once fn() holds after a DOM change: when it did, and when it was painted. */
  b.whenDom = (fn) =>
    new Promise((resolve) => {
      const check = () => {
        if (!fn()) return false;
        const dom = performance.now();
        // Where the change is in a --trace.
        performance.mark('bench: in the DOM');
        requestAnimationFrame(() => {
          const frame = performance.now();
          // The first task after that frame: its paint and commit are done.
          // (painted, a timer, also waits for the timers the page set meanwhile.)
          let drawn = 0;
          globalThis.scheduler?.postTask(() => (drawn = performance.now()), { priority: 'user-blocking' });
          setTimeout(() => resolve({ dom, frame, drawn, painted: performance.now() }), 0);
        });
        return true;
      };
      if (check()) return;
      const mo = new MutationObserver(() => {
        if (check()) mo.disconnect();
      });
      mo.observe(document, { subtree: true, childList: true, characterData: true });
    });

  /**
   * Arms a click-to-condition timer: the next press on a button named label
   * (its text or aria-label) starts it, or its click when no press came
   * (a click from a script or the keyboard). A person's click starts at the
   * press, and Stop acts there: its button is gone before the release.
   */
  b.armClick = (label, fn) =>
    new Promise((resolve) => {
      const onPress = (e) => {
        const btn = e.target.closest?.('button');
        if (!btn || (btn.textContent.trim() !== label && btn.getAttribute('aria-label') !== label)) return;
        document.removeEventListener('mousedown', onPress, true);
        document.removeEventListener('click', onPress, true);
        const click = e.timeStamp;
        b.whenDom(fn).then((t) => resolve({ click, ...t }));
      };
      document.addEventListener('mousedown', onPress, true);
      document.addEventListener('click', onPress, true);
    });

  /** Timestamps the replies of a bound Go method (service.method) in b.replies[method]. */
  b.watchReplies = (service, method) => {
    const svc = window.go.app[service];
    const orig = svc[method];
    const replies = ((b.replies ??= {})[method] = []);
    svc[method] = (...a) =>
      orig(...a).then((r) => {
        replies.push(performance.now());
        return r;
      });
  };

  /** Timestamps StopTask calls and replies, and cancelled task events. */
  b.watchStop = () => {
    if (b.stopWatched) return;
    b.stopWatched = true;
    b.stops = [];
    const svc = window.go.app.AgentTaskRunner;
    const orig = svc.StopTask;
    svc.StopTask = (...a) => {
      const rec = { call: performance.now() };
      b.stops.push(rec);
      return orig(...a).then((r) => {
        rec.reply = performance.now();
        return r;
      });
    };
    window.runtime.EventsOn('agent:taskUpdate', (t) => {
      const rec = b.stops[b.stops.length - 1];
      if (t?.status !== 'cancelled' || !rec || rec.event) return;
      rec.event = performance.now();
      // When Go stored the task as ended, on the page's clock (Go's is read to the millisecond).
      rec.ended = Date.parse(t.endedAt) - performance.timeOrigin;
    });
    window.runtime.EventsOn('agent:taskMessage', (ev) => {
      const rec = b.stops[b.stops.length - 1];
      if (rec?.event && !rec.message && ev?.message?.role === 'assistant') rec.message = performance.now();
    });
  };

  /** The conversation is shown down to the message with this text. */
  b.shows = (text) => {
    const log = document.querySelector('[role=log]');
    if (!log) return false;
    for (const el of log.querySelectorAll('.text')) if (el.textContent.includes(text)) return true;
    return false;
  };

  /** The conversation shows messages, all of the branch whose messages say mark (other) or none (!other). */
  b.showsBranch = (mark, other) => {
    const rows = document.querySelectorAll('[role=log] .row');
    if (!rows.length) return false;
    return [...rows].every((r) => r.textContent.includes(mark) === other);
  };

  /** Counts agent:messageDelta events and the frame gaps from now on. */
  b.watchStream = () => {
    b.deltas = [];
    b.streamed = 0;
    b.ends = {};
    b.outOfOrder = 0;
    b.frames = [];
    b.watching = true;
    if (!b.subscribed) {
      b.subscribed = true;
      window.runtime.EventsOn('agent:messageDelta', (d) => {
        if (!b.watching) return;
        b.deltas.push({ at: performance.now(), bytes: JSON.stringify(d).length });
        b.streamed += d?.text?.length ?? 0;
        // A delta that does not start where the one before it ended came out of order.
        const k = `${d.messageId}:${!!d.reasoning}`;
        if (k in b.ends && b.ends[k] !== d.offset) b.outOfOrder++;
        b.ends[k] = d.offset + new TextEncoder().encode(d.text ?? '').length;
      });
    }
    // Which rows of the transcript each delta changed in the page (DOM mutations, counted by row).
    b.rowsTouched = 0;
    b.mutations = 0;
    b.mo?.disconnect();
    b.mo = new MutationObserver((records) => {
      if (!b.watching) return;
      const rows = new Set();
      for (const r of records) {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        rows.add(el?.closest?.('[data-index]') ?? el);
      }
      b.mutations += records.length;
      b.rowsTouched += rows.size;
    });
    b.mo.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    const tick = (t) => {
      b.frames.push(t);
      if (b.watching) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    b.watchFrom = performance.now();
  };
  b.unwatch = () => {
    b.watching = false;
    b.watchTo = performance.now();
  };
}

const logCount = () => { const log = document.querySelector('[role=log]'); return Number(log?.dataset.items ?? log?.childElementCount ?? 0); };

/** The text of the seeded largest conversation's last message (e2e/bench/seed). */
const LAST_MESSAGE = 'This is the last message of the benchmark history.';



/**
 * The dev build opens its own WebKit window on the same backend, which
 * would render everything Chromium renders, on the same CPUs. Its web
 * process (ours: a child of the errand-dev we started) is paused with
 * SIGSTOP while we measure, and resumed before the app is stopped.
 */
async function pauseDevWindow(app) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const web = treeMemory(app.proc.pid).filter((p) => /^WebKitWebProces/.test(p.name));
    if (web.length) {
      for (const p of web) process.kill(p.pid, 'SIGSTOP');
      return () => {
        for (const p of web) {
          try {
            process.kill(p.pid, 'SIGCONT');
          } catch {
            // gone
          }
        }
      };
    }
    await delay(20);
  }
  return () => {};
}

/** A profile node's function, as "name file:line". */
const frameName = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;

/** Prints the most frequent of counts (a Map of name → samples) as shares of total. */
function printTop(title, counts, total, most) {
  console.error(`--- profile: ${title}`);
  for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, most)) {
    console.error(`${((100 * c) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
}

/** Samples by function, each counted once per sample: its own time (self) or with its callees. */
function countFrames(samples, byId, parent, self) {
  const counts = new Map();
  for (const id of samples) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = self ? undefined : parent.get(at)) {
      const k = frameName(byId.get(at));
      if (seen.has(k)) continue;
      seen.add(k);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  }
  return counts;
}

/** The longest run of samples without idle, as [from, to): what the longest task did. */
function longestBusyRun(samples, byId) {
  let best = [0, 0];
  for (let i = 0, from = 0; i <= samples.length; i++) {
    if (i === samples.length || byId.get(samples[i]).callFrame.functionName === '(idle)') {
      if (i - from > best[1] - best[0]) best = [from, i];
      from = i + 1;
    }
  }
  return best;
}

/** Where a CPU profile's main-thread time went: self time, the longest busy run, total time. */
function report(profile, label) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const { samples } = profile;
  printTop(`${label} (self time, ${samples.length} samples)`, countFrames(samples, byId, parent, true), samples.length, 12);
  const [from, to] = longestBusyRun(samples, byId);
  const ms = profile.timeDeltas.slice(from + 1, to).reduce((a, b) => a + b, 0) / 1000;
  printTop(`${label}, the longest busy run (${ms.toFixed(0)} ms, total time)`, countFrames(samples.slice(from, to), byId, parent, false), to - from, 45);
  printTop(`${label} (total time)`, countFrames(samples, byId, parent, false), samples.length, 40);
}

/** With --profile, the functions that took the main thread's time while fn ran. */
async function profiled(page, label, fn) {
  if (!opt.profile) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    report(profile, label);
    await cdp.detach();
  }
}

async function launch(url, { headless = true } = {}) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless, timeout: 60_000 });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(30_000);
  await context.addInitScript(instrument);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  page.on('crash', () => console.error('the page crashed'));
  return { browser, page, url };
}

async function ready(page, timeout = 600_000) {
  await page.waitForFunction(
    () => typeof window.go?.app?.AgentTaskRunner?.StartTask === 'function' && typeof window.runtime?.EventsOn === 'function',
    null,
    { timeout },
  );
  await page.locator(INPUT).waitFor({ state: 'visible', timeout });
}

// CSS selectors, not getByRole: with 10,000 conversations in the sidebar,
// computing accessible names for every button would itself take seconds of
// the page's main thread, inside the measurements.
const INPUT = 'textarea.composer-input';
const SEND = '.composer-actions button[type=submit]';
const STOP = '.composer-actions .btn-stop';
const ROWS = 'nav[aria-label="Conversation list"] button.conv-row';

async function send(page, text) {
  await page.locator(INPUT).fill(text, { timeout: 180_000 });
  await page.locator(SEND).click({ timeout: 180_000 });
  // Generous: with 10,000 rows a busy page can take long to take the message
  // (a guard against a broken page, not a measurement).
  await page.waitForFunction((sel) => document.querySelector(sel)?.value === '', INPUT, { timeout: 180_000 });
}

/** Opens a new, empty conversation. */
async function newConversation(page) {
  await page.locator('.btn-new').click();
  await page.waitForFunction(() => document.querySelector('h1')?.textContent?.trim() === 'New conversation');
}

const statusText = (page) => page.evaluate(() => document.querySelector('[role=status] .status-text')?.textContent?.trim() ?? '');

async function waitStatus(page, re, timeout = 300_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const s = await statusText(page);
    if (re.test(s)) return s;
    if (Date.now() > deadline) throw new Error(`status stayed ${JSON.stringify(s)}, wanted ${re}`);
    await delay(20);
  }
}

// ---- stop ----

async function stopBench() {
  const n = Number(opt.stops) || (opt.smoke ? 5 : 200);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'errand-bench-stop-'));
  const model = await startModel();
  const app = await startDevApp({ dataDir, baseURL: model.baseURL, assetDir: opt.assetdir });
  const resume = await pauseDevWindow(app);
  const { browser, page } = await launch(app.url);
  try {
    await page.goto(app.url);
    await ready(page);
    await page.evaluate(() => window.__bench.watchStop());
    const toDom = [];
    const toPaint = [];
    const toCall = [];
    const toReply = [];
    const toEvent = [];
    await profiled(page, `${n} stops`, async () => {
      for (let i = 0; i < n; i++) {
        if (i > 0 && i % 50 === 0) {
          await newConversation(page);
        }
        await send(page, `[stream 20000] stop me ${i}`);
        // Mid-stream: the agent's bubble is streaming text.
        await page.waitForFunction(() => {
          const b = document.querySelectorAll('.bubble-agent.is-streaming .text');
          return b.length > 0 && /tok\d/.test(b[b.length - 1].textContent);
        });
        const timing = page.evaluate(() =>
          window.__bench.armClick('Stop', () => document.querySelector('[role=status] .status-text')?.textContent?.trim() === 'Stopped'),
        );
        await page.locator(STOP).click();
        const t = await timing;
        toDom.push(t.dom - t.click);
        toPaint.push(t.painted - t.click);
        const rec = await page.evaluate(() => window.__bench.stops[window.__bench.stops.length - 1]);
        toCall.push(rec.call - t.click);
        toReply.push(rec.reply - t.click);
        if (rec.event) toEvent.push(rec.event - t.click);
        await waitStatus(page, /^Stopped$/);
      }
    });
    emit(`${P}.stop.samples`, toDom.length, 'count');
    emit(`${P}.stop.click_to_dom.p50`, percentile(toDom, 50), 'ms');
    emit(`${P}.stop.click_to_dom.p99`, percentile(toDom, 99), 'ms');
    emit(`${P}.stop.click_to_painted.p50`, percentile(toPaint, 50), 'ms');
    emit(`${P}.stop.click_to_painted.p99`, percentile(toPaint, 99), 'ms');
    // Where the time goes: the click handler reaching the bound call, Go's
    // reply arriving, the cancelled event arriving.
    for (const [name, v] of [['click_to_call', toCall], ['click_to_reply', toReply], ['click_to_event', toEvent]]) {
      emit(`${P}.stop.${name}.p50`, percentile(v, 50), 'ms');
      emit(`${P}.stop.${name}.p99`, percentile(v, 99), 'ms');
    }
  } finally {
    await browser.close().catch(() => {});
    resume();
    await app.proc.stop();
    await model.proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- ui with a seeded history ----

/** Streams `tokens` tokens in the open conversation; reports the main thread meanwhile. */
async function streamBench(page, tokens, name) {
  await page.evaluate(() => window.__bench.watchStream());
  await send(page, `[stream ${tokens}] ${name}`);
  // Long tasks are counted from here: the app's work, not the harness's typing.
  const from = await page.evaluate(() => performance.now());
  // And the page's layouts (Chromium's own count, forced or in a frame).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const layouts = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'LayoutCount')?.value ?? 0;
  const layoutsFrom = await layouts();
  // A new conversation's first message may be answered as a chat reply ("Replied").
  await waitStatus(page, /^(Completed|Replied)$/, 120_000);
  const layoutCount = (await layouts()) - layoutsFrom;
  await cdp.detach();
  const r = await page.evaluate((from) => {
    const b = window.__bench;
    b.unwatch();
    const tasks = b.longtasks.filter((t) => t.start >= from);
    const frames = b.frames.filter((t) => t >= from);
    let gap = 0;
    let gapEnd = 0;
    for (let i = 1; i < frames.length; i++) {
      if (frames[i] - frames[i - 1] > gap) [gap, gapEnd] = [frames[i] - frames[i - 1], frames[i]];
    }
    const d = b.deltas;
    const span = d.length > 1 ? (d[d.length - 1].at - d[0].at) / 1000 : 0;
    return {
      longest: tasks.reduce((m, t) => Math.max(m, t.duration), 0),
      longtasks: tasks.length,
      longtaskTime: tasks.reduce((m, t) => m + t.duration, 0),
      gap,
      // Where the longest gap ended: ms after the first delta, and before the last one's arrival.
      gapAfterFirst: d.length ? gapEnd - d[0].at : 0,
      gapBeforeLast: d.length ? d[d.length - 1].at - gapEnd : 0,
      frames: frames.length,
      seconds: (b.watchTo - from) / 1000,
      deltas: d.length,
      perSecond: span > 0 ? (d.length - 1) / span : 0,
      bytes: d.length ? d.reduce((m, x) => m + x.bytes, 0) / d.length : 0,
      rowsPerDelta: d.length ? b.rowsTouched / d.length : 0,
      mutationsPerDelta: d.length ? b.mutations / d.length : 0,
      domNodes: document.querySelector('[role=log]')?.getElementsByTagName('*').length ?? 0,
    };
  }, from);
  emit(`${P}.stream.${name}.longest_task`, r.longest, 'ms');
  emit(`${P}.stream.${name}.longtasks`, r.longtasks, 'count');
  emit(`${P}.stream.${name}.longest_frame_gap`, r.gap, 'ms');
  emit(`${P}.stream.${name}.longest_frame_gap_after_first_delta`, r.gapAfterFirst, 'ms');
  emit(`${P}.stream.${name}.longest_frame_gap_before_last_delta`, r.gapBeforeLast, 'ms');
  emit(`${P}.stream.${name}.fps`, r.frames / r.seconds, 'frames/s');
  emit(`${P}.stream.${name}.delta_events_per_s`, r.perSecond, 'events/s');
  emit(`${P}.stream.${name}.delta_bytes`, r.bytes, 'bytes');
  // Counts, which the machine's load does not change: how much of the page a delta touched.
  emit(`${P}.stream.${name}.rows_changed_per_delta`, r.rowsPerDelta, 'rows');
  emit(`${P}.stream.${name}.dom_mutations_per_delta`, r.mutationsPerDelta, 'count');
  emit(`${P}.stream.${name}.transcript_dom_nodes`, r.domNodes, 'count');
  emit(`${P}.stream.${name}.layouts_per_frame`, r.frames ? layoutCount / r.frames : 0, 'count');
  emit(`${P}.stream.${name}.layouts_per_delta`, r.deltas ? layoutCount / r.deltas : 0, 'count');
}

async function uiBench() {
  let seeded = opt.seeded;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'errand-bench-ui-'));
  if (!seeded) {
    // Smoke: a small history made here.
    seeded = path.join(tmp, 'seed');
    execFileSync(path.join(BIN, 'seed'), ['-dir', seeded, '-convs', '50', '-msgs', '3000', '-big', '1000'], { stdio: 'inherit' });
  }
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir);
  copyFileSync(path.join(seeded, 'errand.db'), path.join(dataDir, 'errand.db'));
  const model = await startModel();
  const app = await startDevApp({ dataDir, baseURL: model.baseURL, assetDir: opt.assetdir });
  const resume = await pauseDevWindow(app);
  await waitIdle(app.proc.pid, 120_000);
  const { browser, page } = await launch(app.url, { headless: false });
  try {
    // 1. Load → the big conversation (the newest, opened at start) painted
    // down to its last message, which is where it opens.
    await page.goto('about:blank');
    await page.goto(app.url, { waitUntil: 'commit' });
    const load = await profiled(page, 'start with the history', () =>
      page.evaluate((text) => window.__bench.whenDom(() => window.__bench.shows(text)), LAST_MESSAGE),
    );
    await ready(page);
    const items = await page.evaluate(logCount);
    emit(`${P}.ui.load_to_big_conversation_painted`, load.painted, 'ms', { items });

    // Memory of the browser showing it, idle.
    await waitIdle(app.proc.pid, 60_000);
    await delay(3000);
    // Chromium's processes are this script's descendants named chrom*.
    const mem = treeMemory(process.pid).filter((p) => /^chrom/i.test(p.name));
    const pss = mem.reduce((m, p) => m + p.pssKB, 0) / 1024;
    const rss = mem.reduce((m, p) => m + p.rssKB, 0) / 1024;
    const fp = footprint(mem.map((p) => p.pid));
    emit(`${P}.alt_chromium.idle_footprint`, fp.total, 'MB', { processes: mem.length });
    emit(`${P}.alt_chromium.idle_private`, fp.private, 'MB');
    emit(`${P}.alt_chromium.idle_pss`, pss, 'MB', { processes: mem.length });
    emit(`${P}.alt_chromium.idle_rss_sum`, rss, 'MB');

    // 2. Reopen it from the sidebar: another conversation, then back.
    const rows = page.locator(ROWS);
    await rows.nth(1).click();
    await page.waitForFunction((text) => !window.__bench.shows(text), LAST_MESSAGE, { timeout: 120_000 });
    await delay(500);
    const reopenTiming = page.evaluate(
      ([sel, text]) => window.__bench.armClick(document.querySelector(sel)?.textContent?.trim(), () => window.__bench.shows(text)),
      [ROWS, LAST_MESSAGE],
    );
    await rows.nth(0).click();
    const reopen = await reopenTiming;
    emit(`${P}.ui.reopen_big_conversation_painted`, reopen.painted - reopen.click, 'ms');

    // 3. Streaming in the big conversation, then in a new one.
    const tokens = opt.smoke ? 300 : 5000;
    await profiled(page, 'streaming in the big conversation', () => streamBench(page, tokens, 'big_conversation'));
    await newConversation(page);
    await profiled(page, 'streaming in a new conversation', () => streamBench(page, tokens, 'new_conversation'));
  } finally {
    await browser.close().catch(() => {});
    resume();
    await app.proc.stop();
    await model.proc.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---- a long reply ----

/** The text a [long N] reply of build/bin/benchmodel ends with. */
const LONG_END = 'The end of the long reply.';

/** The longest main-thread task since from, in ms. */
const longestTaskSince = (page, from) =>
  page.evaluate((from) => window.__bench.longtasks.filter((t) => t.start >= from).reduce((m, t) => Math.max(m, t.duration), 0), from);

/** What --trace records around a Stop: the main thread's tasks, style, layout, paint and compositing. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

async function longBench() {
  const size = opt.smoke ? 256 << 10 : 5 << 20;
  const points = [0.25, 0.5, 0.75];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'errand-bench-long-'));
  const model = await startModel({ rate: 1_000_000 });
  const app = await startDevApp({ dataDir, baseURL: model.baseURL, assetDir: opt.assetdir });
  const resume = await pauseDevWindow(app);
  const { browser, page } = await launch(app.url);
  try {
    await page.goto(app.url);
    await ready(page);
    await page.evaluate(() => window.__bench.watchStop());
    // Each OpenConversation after the first is the conversation read again (a delta that did not line up).
    await page.evaluate(() => window.__bench.watchReplies('Conversations', 'OpenConversation'));
    const loads = () => page.evaluate(() => window.__bench.replies.OpenConversation.length);

    // The whole reply: completed, and shown down to its last line.
    await page.evaluate(() => window.__bench.watchStream());
    const from = await page.evaluate(() => performance.now());
    await profiled(page, 'a long reply', async () => {
      await send(page, `[long ${size}] the whole reply`);
      await waitStatus(page, /^(Completed|Replied)$/, 900_000);
    });
    const shown = await page.evaluate(
      (text) => window.__bench.whenDom(() => window.__bench.shows(text)).then((t) => t.painted),
      LONG_END,
    );
    const [streamed, outOfOrder] = await page.evaluate(() => [window.__bench.streamed, window.__bench.outOfOrder]);
    emit(`${P}.long.bytes`, streamed, 'bytes');
    emit(`${P}.long.deltas_out_of_order`, outOfOrder, 'count');
    emit(`${P}.long.conversation_loads`, await loads(), 'count');
    emit(`${P}.long.completed_and_shown`, shown - from, 'ms');
    emit(`${P}.long.longest_task`, await longestTaskSince(page, from), 'ms');
    // The page's size for it, which the load does not change: elements in the transcript, and Markdown blocks in it.
    const dom = await page.evaluate(() => {
      const log = document.querySelector('[role=log]');
      const md = log?.querySelector('.bubble-agent .md');
      return { nodes: log?.getElementsByTagName('*').length ?? 0, blocks: md?.children.length ?? 0 };
    });
    emit(`${P}.long.transcript_dom_nodes`, dom.nodes, 'count');
    emit(`${P}.long.reply_children_in_page`, dom.blocks, 'count');

    // Stop at points through such a reply.
    const toDom = [];
    const toPaint = [];
    const toDrawn = [];
    for (const p of points) {
      await newConversation(page);
      await page.evaluate(() => window.__bench.watchStream());
      const loadsBefore = await loads();
      const sent = await page.evaluate(() => performance.now());
      await send(page, `[long ${size}] stop me at ${Math.round(p * 100)}%`);
      await page
        .waitForFunction((n) => window.__bench.streamed >= n, Math.floor(p * size), { timeout: 300_000, polling: 50 })
        .catch(async (e) => {
          const seen = await page.evaluate(() => [window.__bench.streamed, document.querySelector('[role=status] .status-text')?.textContent]);
          throw new Error(`${e.message}: ${seen[0]} bytes streamed, status ${seen[1]}`);
        });
      const timing = page.evaluate(() =>
        window.__bench.armClick('Stop', () => document.querySelector('[role=status] .status-text')?.textContent?.trim() === 'Stopped'),
      );
      const pct = Math.round(p * 100);
      if (opt.trace) await browser.startTracing(page, { path: `${opt.trace}-${pct}.json`, categories: TRACE_CATEGORIES });
      const t = await profiled(page, `Stop at ${pct}% of a long reply`, async () => {
        // Clicked in the page: what is measured is the app, not the
        // harness's wait for the button to hold still while text streams.
        const clicked = await page.evaluate((sel) => {
          const stop = document.querySelector(sel);
          stop?.click();
          return !!stop;
        }, STOP);
        return clicked ? timing : null;
      });
      if (opt.trace) await browser.stopTracing();
      if (!t) {
        // The window fell so far behind that the task ended before it showed this much.
        console.error(`long: the reply ended before ${pct}% of it was shown`);
        continue;
      }
      toDom.push(t.dom - t.click);
      toPaint.push(t.painted - t.click);
      // Where the time goes: StopTask's reply and the cancelled task event reaching the page.
      const rec = await page.evaluate(() => window.__bench.stops.at(-1));
      // Go's end of the task (its clock), the cancelled task event, the stopped message's event, StopTask's reply.
      await page.waitForFunction(() => window.__bench.stops.at(-1)?.message, null, { timeout: 10_000 }).catch(() => {});
      const at = await page.evaluate(() => {
        const rec = window.__bench.stops.at(-1) ?? {};
        const b = window.__bench;
        return { ...rec, deltas: b.deltas.filter((d) => d.at > rec.call && d.at < (rec.event ?? Infinity)).length, outOfOrder: b.outOfOrder };
      });
      for (const k of ['ended', 'event', 'message', 'reply']) {
        if (at[k]) emit(`${P}.long.stop_at_${pct}_pct.click_to_${k}`, at[k] - t.click, 'ms');
      }
      emit(`${P}.long.stop_at_${pct}_pct.deltas_after_click`, at.deltas, 'count');
      emit(`${P}.long.stop_at_${pct}_pct.deltas_out_of_order`, at.outOfOrder, 'count');
      emit(`${P}.long.stop_at_${Math.round(p * 100)}_pct.click_to_painted`, t.painted - t.click, 'ms');
      emit(`${P}.long.stop_at_${Math.round(p * 100)}_pct.click_to_dom`, t.dom - t.click, 'ms');
      emit(`${P}.long.stop_at_${pct}_pct.click_to_frame`, t.frame - t.click, 'ms');
      if (t.drawn) {
        toDrawn.push(t.drawn - t.click);
        emit(`${P}.long.stop_at_${pct}_pct.click_to_drawn`, t.drawn - t.click, 'ms');
      }
      emit(`${P}.long.stop_at_${Math.round(p * 100)}_pct.longest_task`, await longestTaskSince(page, sent), 'ms');
      await waitStatus(page, /^Stopped$/);
      emit(`${P}.long.stop_at_${pct}_pct.conversation_loads`, (await loads()) - loadsBefore, 'count');
    }
    if (toDom.length) emit(`${P}.long.stop.click_to_dom.max`, Math.max(...toDom), 'ms');
    if (toPaint.length) emit(`${P}.long.stop.click_to_painted.max`, Math.max(...toPaint), 'ms');
    if (toDrawn.length) emit(`${P}.long.stop.click_to_drawn.max`, Math.max(...toDrawn), 'ms');
  } finally {
    await browser.close().catch(() => {});
    resume();
    await app.proc.stop();
    await model.proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- switching branches ----

/** What e2e/bench/seed -fork writes: words of the two versions of the first message, and ForkMark. */
const FORK = { first: 'Zephyrfork', other: 'Quillfork', mark: 'edited branch' };

/** Shows the first message of the branch shown (found with the search dialog, as a person would). */
async function showFirstMessage(page, version) {
  await page.keyboard.press('Control+k');
  const box = page.locator('input.search-input');
  await box.fill(FORK[version]);
  // The one hit of this search (not one of the search before, still listed until it is replaced).
  const hits = page.locator('.search-results[aria-busy=false] [role=option]');
  await page.waitForFunction((word) => {
    const found = [...document.querySelectorAll('.search-results[aria-busy=false] [role=option]')];
    return found.length === 1 && found[0].textContent.includes(word);
  }, FORK[version]);
  await hits.first().click();
  await page.locator('[role=log] button[aria-label="Next version"]').first().waitFor({ state: 'attached', timeout: 60_000 });
}

async function branchBench() {
  const n = opt.smoke ? 300 : 10_000;
  const runs = opt.smoke ? 2 : 10;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'errand-bench-branch-'));
  const dataDir = path.join(tmp, 'data');
  mkdirSync(dataDir);
  execFileSync(path.join(BIN, 'seed'), ['-dir', dataDir, '-convs', '1', '-msgs', String(n), '-big', String(n), '-fork'], { stdio: 'inherit' });
  const model = await startModel();
  const app = await startDevApp({ dataDir, baseURL: model.baseURL, assetDir: opt.assetdir });
  const resume = await pauseDevWindow(app);
  await waitIdle(app.proc.pid, 60_000);
  const { browser, page } = await launch(app.url, { headless: false });
  try {
    await page.goto(app.url);
    await ready(page);
    await page.waitForFunction((text) => window.__bench.shows(text), LAST_MESSAGE, { timeout: 120_000 });
    await page.evaluate(() => window.__bench.watchReplies('Conversations', 'ShowVersion'));
    const toPaint = [];
    const toDom = [];
    const toReply = [];
    let shown = 'first';
    for (let i = 0; i < runs; i++) {
      const [label, next] = shown === 'first' ? ['Next version', 'other'] : ['Previous version', 'first'];
      await showFirstMessage(page, shown);
      await delay(300); // let the jump's scrolling settle: the click is measured, not the harness
      const timing = page.evaluate(
        ([label, mark, other]) => window.__bench.armClick(label, () => window.__bench.showsBranch(mark, other)),
        [label, FORK.mark, next === 'other'],
      );
      await page.locator(`[role=log] button[aria-label="${label}"]`).first().click();
      const t = await Promise.race([timing, delay(60_000).then(() => null)]);
      if (!t) throw new Error(`the ${next} branch was not shown a minute after ${label}`);
      const reply = await page.evaluate(() => window.__bench.replies.ShowVersion.at(-1));
      toPaint.push(t.painted - t.click);
      toDom.push(t.dom - t.click);
      toReply.push(reply - t.click);
      shown = next;
    }
    emit(`${P}.branch.messages`, n, 'count', { runs });
    emit(`${P}.branch.click_to_painted.p50`, percentile(toPaint, 50), 'ms');
    emit(`${P}.branch.click_to_painted.max`, Math.max(...toPaint), 'ms');
    emit(`${P}.branch.click_to_dom.p50`, percentile(toDom, 50), 'ms');
    emit(`${P}.branch.click_to_reply.p50`, percentile(toReply, 50), 'ms');
  } finally {
    await browser.close().catch(() => {});
    resume();
    await app.proc.stop();
    await model.proc.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (parts.has('stop')) await stopBench();
if (parts.has('ui')) await uiBench();
if (parts.has('long')) await longBench();
if (parts.has('branch')) await branchBench();
process.exit(0);

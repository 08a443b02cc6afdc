// Starts what one e2e test file needs: the scripted model server
// (build/bin/mockmodel), the app's dev binary (build/bin/errand-dev, which
// serves the built frontend plus the Go bindings and events over HTTP and
// a websocket) with a fresh data directory, and a headless Chromium page
// on it. Every process is stopped by its own PID.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(E2E_DIR, '..');
export const BIN_DIR = path.join(ROOT, 'build', 'bin');
export const ARTIFACTS_DIR = path.join(E2E_DIR, 'artifacts');

/** How long a UI condition may take before a test fails. */
export const TIMEOUT = 15_000;
/** How long a process may take to come up. */
const START_TIMEOUT = 30_000;
/** How long e2e-seed may take to fill a data folder (10,000 conversations, under load). */
const SEED_TIMEOUT = 120_000;
/** How long a process may take to exit after SIGTERM before SIGKILL. */
const STOP_TIMEOUT = 5_000;

export const CHROMIUM = process.env.ERRAND_E2E_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const execFileAsync = promisify(execFile);

// ---- processes ----

function killPid(pid, signal) {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

/** Resolves true when promise settles within ms, else false. */
async function withTimeout(promise, ms) {
  let timer;
  const ok = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return ok;
}

/**
 * Waits until every promise has settled (so nothing is still starting
 * behind a failure), then throws the first one's error, if any.
 */
async function settleAll(promises) {
  const failure = (await Promise.allSettled(promises)).find((r) => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/** Children still running ({pid}); killed if this test process ends abruptly. */
const live = new Set();
process.on('exit', () => {
  for (const p of live) killPid(p.pid, 'SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    for (const p of live) killPid(p.pid, 'SIGKILL');
    process.exit(130);
  });
}

/** A child process whose output is kept (the tail) for failure reports. */
class Proc {
  constructor(name, file, args, options) {
    this.name = name;
    this.lines = [];
    this.listeners = new Set();
    this.exitCode = undefined;
    this.child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    this.pid = this.child.pid;
    live.add(this);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitCode = code ?? signal;
        live.delete(this);
        resolve(this.exitCode);
      });
      this.child.on('error', (err) => {
        this.#line('spawn', String(err));
        this.exitCode = 'spawn-error';
        live.delete(this);
        resolve(this.exitCode);
      });
    });
    for (const [stream, label] of [
      [this.child.stdout, 'out'],
      [this.child.stderr, 'err'],
    ]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          this.#line(label, buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      stream.on('end', () => {
        if (buf) this.#line(label, buf);
        buf = '';
      });
    }
  }

  #line(label, text) {
    this.lines.push(`[${label}] ${text}`);
    if (this.lines.length > 500) this.lines.splice(0, this.lines.length - 500);
    for (const fn of this.listeners) fn(text);
  }

  /** Resolves with the first output line matching re (seen or to come). */
  waitForLine(re, timeoutMs) {
    return new Promise((resolve, reject) => {
      const found = this.lines.map((l) => l.replace(/^\[\w+\] /, '')).find((l) => re.test(l));
      if (found !== undefined) return resolve(found);
      const done = (fn, v) => {
        clearTimeout(timer);
        this.listeners.delete(onLine);
        fn(v);
      };
      const onLine = (l) => {
        if (re.test(l)) done(resolve, l);
      };
      const timer = setTimeout(
        () => done(reject, new Error(`${this.name}: no output line matching ${re} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.listeners.add(onLine);
      this.exited.then((code) => done(reject, new Error(`${this.name} exited (${code}) before printing ${re}`)));
    });
  }

  /** SIGTERM by PID, then SIGKILL if it has not exited in time. */
  async stop() {
    if (this.exitCode !== undefined) return;
    if (!killPid(this.pid, 'SIGTERM')) return;
    if (!(await withTimeout(this.exited, STOP_TIMEOUT))) {
      this.lines.push(`[harness] no exit ${STOP_TIMEOUT} ms after SIGTERM; sending SIGKILL`);
      killPid(this.pid, 'SIGKILL');
      await this.exited;
    }
  }

  /** Sends signal by PID (SIGKILL: a crash) and waits for the exit; SIGKILL if it outlives STOP_TIMEOUT. */
  async kill(signal = 'SIGKILL') {
    if (this.exitCode !== undefined) return;
    this.lines.push(`[harness] sending ${signal}`);
    if (!killPid(this.pid, signal)) return;
    if (!(await withTimeout(this.exited, STOP_TIMEOUT))) {
      killPid(this.pid, 'SIGKILL');
      await this.exited;
    }
  }

  log() {
    return `--- ${this.name} (pid ${this.pid}, exit ${this.exitCode ?? 'running'}) ---\n${this.lines.join('\n')}\n`;
  }
}

function binary(name) {
  const file = path.join(BIN_DIR, name);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build it first with \`make build-dev\` (from ${ROOT})`);
  }
  return file;
}

/** A port that was free a moment ago (bind port 0, read it, release it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts the scripted model server; resolves with its /v1 base URL. args
 * go to mockmodel as well (e.g. ['-models', 'a,b', '-api-key', 'sk-…']).
 */
export async function startMockModel(args = []) {
  const proc = new Proc('mockmodel', binary('mockmodel'), ['-addr', '127.0.0.1:0', '-log', ...args], { cwd: ROOT });
  try {
    const line = await proc.waitForLine(/^listening http:\/\/\S+$/, START_TIMEOUT);
    const url = line.split(/\s+/)[1].replace(/\/+$/, '');
    return { proc, baseURL: `${url}/v1` };
  } catch (err) {
    await proc.stop();
    err.message += `\n${proc.log()}`;
    throw err;
  }
}

/** GET url's body, or null when nothing answers yet. */
async function fetchText(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : null;
  } catch {
    return null;
  }
}

/** The environment variables that name a model server and override the settings. */
export const MODEL_ENV = ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'ERRAND_MODEL'];

/**
 * Starts errand-dev on a free port. The dev server does not exit when its
 * port is taken (it logs "address already in use" and keeps the window
 * open), so that line means: stop it and try another port.
 *
 * With env (the default) the app is pointed at baseURL through
 * OPENAI_BASE_URL, OPENAI_API_KEY and ERRAND_MODEL, which override the
 * settings. With env: false none of them is set (not even inherited), so
 * the app starts as on a first run, on the demo model, and is configured
 * through its Settings.
 */
export async function startApp({ dataDir, baseURL, env: useEnv = true }) {
  if (!process.env.DISPLAY) {
    throw new Error('errand-dev opens a GTK window: run the tests under xvfb-run (see e2e/README.md)');
  }
  const file = binary('errand-dev');
  if (!existsSync(path.join(ROOT, 'frontend', 'dist', 'index.html'))) {
    throw new Error(`frontend/dist is not built: run \`make frontend\` (from ${ROOT})`);
  }
  const env = {
    ...process.env,
    NO_AT_BRIDGE: '1',
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    ERRAND_DATA_DIR: dataDir,
    // The browser is the app's only frontend: its own window shows a blank
    // page rather than a second copy of the frontend (window_dev.go).
    ERRAND_DEV_BLANK_WINDOW: '1',
  };
  if (useEnv) {
    Object.assign(env, { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'e2e-test-key', ERRAND_MODEL: 'mock-model' });
  } else {
    for (const name of MODEL_ENV) delete env[name];
  }
  let lastErr;
  for (let attempt = 1; attempt <= 4; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const proc = new Proc(`errand-dev :${port}`, file, ['-devserver', `127.0.0.1:${port}`, '-assetdir', 'frontend/dist'], {
      cwd: ROOT,
      env,
    });
    let portTaken = false;
    const onLine = (l) => {
      if (/address already in use/i.test(l)) portTaken = true;
    };
    proc.listeners.add(onLine);
    const deadline = Date.now() + START_TIMEOUT;
    let ready = false;
    while (!portTaken && proc.exitCode === undefined && Date.now() < deadline) {
      const body = await fetchText(url);
      if (body && body.includes('/wails/ipc.js')) {
        ready = true;
        break;
      }
      await delay(100);
    }
    proc.listeners.delete(onLine);
    if (ready && !portTaken) return { proc, url };
    await proc.stop();
    lastErr = new Error(
      portTaken
        ? `errand-dev: port ${port} was taken`
        : proc.exitCode !== undefined
          ? `errand-dev exited (${proc.exitCode}) before serving ${url}`
          : `errand-dev did not serve ${url} within ${START_TIMEOUT} ms`,
    );
    lastErr.message += `\n${proc.log()}`;
    if (!portTaken) break;
  }
  throw lastErr;
}

// ---- the whole stack for one test file ----

function slug(s) {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export class Stack {
  /**
   * @param {string} name a short name for logs, artifacts and the data dir
   * @param {{ env?: boolean, mockArgs?: string[], mode?: string, seed?: string[] }} [options]
   *   env: false starts the app without the model-server environment
   *   variables (on the demo model until a provider is saved in Settings);
   *   mockArgs are extra mockmodel flags.
   *   mode is the default mode for new conversations ('agent' unless a
   *   file says otherwise: most tests hand Errand tasks), set in Settings
   *   at start, and the mode of the conversation open at start.
   *   seed are e2e-seed flags for what the data folder holds before the
   *   app starts, e.g. ['-messages', '2000', '-fillers', '10000'].
   */
  constructor(name, { env = true, mockArgs = [], mode = 'agent', seed = [] } = {}) {
    this.name = name;
    this.env = env;
    this.mockArgs = mockArgs;
    this.mode = mode;
    this.seed = seed;
    this.procs = [];
    this.console = [];
    this.failed = false;
    this.browser = null;
    this.page = null;
  }

  async start() {
    try {
      // The page is made while the processes start: neither needs the other.
      await settleAll([this.#startProcesses(), this.#startBrowser()]);
      await this.open();
    } catch (err) {
      this.failed = true;
      await this.saveArtifacts('before', err);
      throw err;
    }
  }

  /** The data folder, the model server and the app on them. */
  async #startProcesses() {
    this.dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `errand-e2e-${slug(this.name)}-`));
    await settleAll([
      startMockModel(this.mockArgs).then((mock) => {
        this.mock = mock;
        this.procs.push(mock.proc);
      }),
      this.#seedData(),
    ]);
    this.app = await startApp({ dataDir: this.dataDir, baseURL: this.mock.baseURL, env: this.env });
    this.procs.push(this.app.proc);
    this.url = this.app.url;
  }

  /** The browser (see #browserEndpoint) and the file's page in it. */
  async #startBrowser() {
    this.browser = await chromium.connect(await this.#browserEndpoint(), { timeout: START_TIMEOUT });
    await this.#newPage();
  }

  /**
   * The file's own context (its own cookies, storage and pages) and its
   * page; options are Playwright's context options on top of the window
   * size, e.g. { reducedMotion: 'reduce' }.
   */
  async #newPage(options = {}) {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
    context.setDefaultTimeout(TIMEOUT);
    this.page = await context.newPage();
    this.page.on('console', (m) => this.#note(`console.${m.type()}: ${m.text()}`));
    this.page.on('pageerror', (e) => this.#note(`pageerror: ${e.stack || e}`));
    this.page.on('requestfailed', (r) => this.#note(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  }

  /**
   * Opens the app again in a new context with these context options (see
   * #newPage), e.g. as for a person whose system asks for reduced motion;
   * the tests after it drive the new page. The old context is closed.
   */
  async reopen(options) {
    const old = this.page.context();
    await this.#newPage(options);
    await old.close();
    await this.open();
  }

  /**
   * The browser this file opens its context in: the one run.mjs started
   * for the whole run (ERRAND_E2E_BROWSER_WS), else one of its own.
   */
  async #browserEndpoint() {
    if (process.env.ERRAND_E2E_BROWSER_WS) return process.env.ERRAND_E2E_BROWSER_WS;
    // launchServer rather than launch: it tells the browser's PID.
    this.browserServer = await chromium.launchServer({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      timeout: START_TIMEOUT,
    });
    this.browserPid = this.browserServer.process().pid;
    live.add({ pid: this.browserPid });
    return this.browserServer.wsEndpoint();
  }

  /**
   * Ends the app's process with signal (SIGKILL by default: as if it
   * crashed or the power went) and starts it again on the same data folder
   * and model server, on a new port; then opens the page there. The old
   * process stays in this.procs, so its output is in failure reports.
   */
  async restartApp({ signal = 'SIGKILL' } = {}) {
    await this.app.proc.kill(signal);
    this.app = await startApp({ dataDir: this.dataDir, baseURL: this.mock.baseURL, env: this.env });
    this.procs.push(this.app.proc);
    this.url = this.app.url;
    await this.open();
  }

  /**
   * Has the mock's slow streams in flight ([slow], [think]) send the rest
   * at once (POST /mock/hurry), for a test that has seen what it needed
   * mid-stream.
   */
  async hurrySlow() {
    const res = await fetch(`${this.mock.baseURL.replace(/\/v1$/, '')}/mock/hurry`, { method: 'POST' });
    if (res.status !== 204) throw new Error(`mockmodel: POST /mock/hurry answered ${res.status}`);
  }

  /** Lets the mock's [later] prompts ask their question (POST /mock/later): they think until then. */
  async releaseLater() {
    const res = await fetch(`${this.mock.baseURL.replace(/\/v1$/, '')}/mock/later`, { method: 'POST' });
    if (res.status !== 204) throw new Error(`mockmodel: POST /mock/later answered ${res.status}`);
  }

  /**
   * Saves this.mode as the default mode in the fresh data folder before the
   * app starts (e2e-seed, through the store), so the conversation the page
   * makes at start is in it, with no reload; and whatever this.seed asks
   * for (its -messages, if any, wins over the 0 here: the last flag does).
   */
  async #seedData() {
    await execFileAsync(binary('e2e-seed'), ['-dir', this.dataDir, '-default-mode', this.mode, '-messages', '0', ...this.seed], {
      timeout: SEED_TIMEOUT,
    });
  }

  #note(line) {
    this.console.push(`${new Date().toISOString()} ${line}`);
    if (this.console.length > 500) this.console.splice(0, this.console.length - 500);
  }

  /**
   * Loads (or reloads) the app and waits until it can be driven: the Go
   * bindings and the runtime's events are there, the app is talking to
   * this file's model server (so to this file's backend), and a
   * conversation is open.
   */
  async open({ reload = false } = {}) {
    const page = this.page;
    if (reload) await page.reload({ waitUntil: 'load' });
    else await page.goto(this.url, { waitUntil: 'load' });
    await page.waitForFunction(
      () =>
        typeof window.go?.app?.AgentTaskRunner?.StartTask === 'function' &&
        typeof window.go?.app?.Conversations?.LoadConversation === 'function' &&
        typeof window.runtime?.EventsOn === 'function',
      null,
      { timeout: TIMEOUT },
    );
    // (Another errand-dev that grabbed the port would name another model
    // server. Without the environment the app may still be on its demo.)
    const info = await page.evaluate(() => window.go.app.Conversations.ModelInfo?.());
    const demoOK = !this.env && info?.demo === true;
    if (typeof info?.baseUrl === 'string' && info.baseUrl !== this.mock.baseURL && !demoOK) {
      throw new Error(`the page talks to a backend for ${JSON.stringify(info)}, not to ${this.mock.baseURL}`);
    }
    const health = await page.evaluate(() => window.go.app.Health?.Status?.());
    if (typeof health?.dataDir === 'string' && health.dataDir !== this.dataDir) {
      throw new Error(`the page talks to a backend on ${health.dataDir}, not on ${this.dataDir}`);
    }
    // A record of the task updates as this page received them (see
    // taskEvents in ui.mjs): the dev server can deliver events out of order.
    await page.evaluate(() => {
      window.__e2eTaskEvents = [];
      window.runtime.EventsOn('agent:taskUpdate', (t) =>
        window.__e2eTaskEvents.push({ id: t?.id, status: t?.status, step: t?.stepCount }),
      );
    });
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible', timeout: TIMEOUT });
    await page.getByRole('status').waitFor({ state: 'visible', timeout: TIMEOUT });
  }

  /**
   * Wraps a test body: on failure it saves a screenshot and the logs to
   * e2e/artifacts/ and adds their paths to the error.
   */
  test(fn) {
    return async (t) => {
      try {
        await fn(this.page, t);
      } catch (err) {
        this.failed = true;
        await this.saveArtifacts(t.name, err);
        throw err;
      }
    };
  }

  async saveArtifacts(label, err) {
    try {
      await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
      const base = path.join(ARTIFACTS_DIR, `${slug(this.name)}--${slug(label)}`);
      const saved = [];
      if (this.page && !this.page.isClosed()) {
        try {
          await this.page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 5_000 });
          saved.push(`${base}.png`);
        } catch (e) {
          this.#note(`screenshot failed: ${e}`);
        }
      }
      let text = '';
      if (this.page && !this.page.isClosed()) {
        text = await this.page
          .evaluate(() => document.body.innerText)
          .catch((e) => `(could not read the page: ${e})`);
      }
      let events = '';
      if (this.page && !this.page.isClosed()) {
        events = await this.page
          .evaluate(() => (window.__e2eTaskEvents ?? []).map((e) => `${e.id} ${e.status} step ${e.step}`).join('\n'))
          .catch((e) => `(could not read them: ${e})`);
      }
      const report = [
        `test: ${label}`,
        `error: ${err?.stack || err}`,
        `data dir: ${this.dataDir}`,
        `url: ${this.url}`,
        '',
        '--- page text ---',
        text,
        '',
        '--- task updates, in the order the page received them ---',
        events,
        '',
        '--- browser console ---',
        ...this.console,
        '',
        ...this.procs.map((p) => p.log()),
      ].join('\n');
      await fs.writeFile(`${base}.log`, report);
      saved.push(`${base}.log`);
      if (err instanceof Error) err.message += `\n  artifacts: ${saved.join(', ')}`;
    } catch (e) {
      console.error('e2e: could not save artifacts:', e);
    }
  }

  async stop() {
    // (On a shared browser this closes the file's context and disconnects.)
    if (this.browser) await this.browser.close().catch(() => {});
    if (this.browserServer) {
      const closed = await withTimeout(this.browserServer.close(), STOP_TIMEOUT).catch(() => false);
      if (!closed) killPid(this.browserPid, 'SIGKILL');
      for (const p of live) if (p.pid === this.browserPid) live.delete(p);
    }
    // The app first (it may still talk to the model), then the model.
    for (const p of [...this.procs].reverse()) await p.stop();
    if (this.dataDir) {
      if (this.failed) console.error(`e2e: kept the data dir of the failed run: ${this.dataDir}`);
      else await fs.rm(this.dataDir, { recursive: true, force: true });
    }
  }
}

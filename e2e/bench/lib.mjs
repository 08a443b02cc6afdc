// Helpers shared by the window benchmarks: child processes stopped by
// their own PID, the memory of a process tree read from /proc, and the
// figures written as JSON lines for table.mjs.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, '..', '..');
export const BIN = path.join(ROOT, 'build', 'bin');
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

export const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/** Parses --name value and --flag arguments. */
export function args(defaults) {
  const out = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (typeof defaults[k] === 'boolean') out[k] = true;
    else out[k] = argv[++i];
  }
  return out;
}

let outFile = null;
export function setOut(file) {
  outFile = file || null;
}

/** Records one figure: printed, and appended to the --out file. */
export function emit(name, value, unit, extra = {}) {
  const line = JSON.stringify({ name, value, unit, ...extra });
  console.log(line);
  if (outFile) appendFileSync(outFile, `${line}\n`);
}

export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1];
}

const live = new Set();
process.on('exit', () => {
  for (const p of live) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A child process with its output kept; stop() is SIGTERM then SIGKILL by PID. */
export class Proc {
  constructor(name, file, argv, options = {}) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run e2e/bench/run.sh (it builds it)`);
    this.name = name;
    this.lines = [];
    this.waiters = new Set();
    this.child = spawn(file, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    this.pid = this.child.pid;
    live.add(this);
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, sig) => {
        this.code = code ?? sig;
        live.delete(this);
        resolve(this.code);
      });
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (d) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          this.lines.push(line);
          if (this.lines.length > 300) this.lines.shift();
          for (const w of this.waiters) w(line);
        }
      });
    }
  }

  waitForLine(re, ms = 30_000) {
    const seen = this.lines.find((l) => re.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name}: no line matching ${re} in ${ms} ms\n${this.log()}`)), ms);
      const w = (l) => {
        if (re.test(l)) {
          clearTimeout(timer);
          this.waiters.delete(w);
          resolve(l);
        }
      };
      this.waiters.add(w);
    });
  }

  async stop() {
    if (this.code !== undefined) return;
    try {
      process.kill(this.pid, 'SIGTERM');
    } catch {
      return;
    }
    const t = await Promise.race([this.exited.then(() => false), delay(5000).then(() => true)]);
    if (t) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // gone
      }
      await this.exited;
    }
  }

  log() {
    return `--- ${this.name} ---\n${this.lines.slice(-40).join('\n')}`;
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts build/bin/benchmodel; resolves with its /v1 URL. */
/** Starts build/bin/benchmodel; rate is its server-sent events a second. */
export async function startModel({ rate = 1000 } = {}) {
  const proc = new Proc('benchmodel', path.join(BIN, 'benchmodel'), ['-addr', '127.0.0.1:0', '-rate', String(rate)]);
  const line = await proc.waitForLine(/^listening http/);
  return { proc, baseURL: `${line.split(/\s+/)[1]}/v1` };
}

export function appEnv(dataDir, baseURL) {
  return {
    ...process.env,
    NO_AT_BRIDGE: '1',
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    ERRAND_DATA_DIR: dataDir,
    OPENAI_BASE_URL: baseURL,
    OPENAI_API_KEY: 'bench-key',
    ERRAND_MODEL: 'bench-model',
  };
}

/** Starts build/bin/errand-dev serving assetDir; resolves once it serves the page. */
export async function startDevApp({ dataDir, baseURL, assetDir = 'frontend/dist' }) {
  const port = await freePort();
  const proc = new Proc('errand-dev', path.join(BIN, 'errand-dev'), ['-devserver', `127.0.0.1:${port}`, '-assetdir', assetDir], {
    cwd: ROOT,
    env: appEnv(dataDir, baseURL),
  });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.code !== undefined) throw new Error(`errand-dev exited\n${proc.log()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok && (await res.text()).includes('/wails/ipc.js')) return { proc, url };
    } catch {
      // not yet
    }
    await delay(100);
  }
  await proc.stop();
  throw new Error(`errand-dev did not serve ${url}\n${proc.log()}`);
}

// ---- memory from /proc ----

function children() {
  const byParent = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!byParent.has(ppid)) byParent.set(ppid, []);
      byParent.get(ppid).push(Number(d));
    } catch {
      // exited meanwhile
    }
  }
  return byParent;
}

/** pid and all its descendants. */
export function processTree(pid) {
  const byParent = children();
  const out = [];
  const walk = (p) => {
    out.push(p);
    for (const c of byParent.get(p) ?? []) walk(c);
  };
  walk(pid);
  return out;
}

/** {pid, name, rssKB, pssKB} of each process of the tree rooted at pid. */
export function treeMemory(pid) {
  const out = [];
  for (const p of processTree(pid)) {
    try {
      const name = readFileSync(`/proc/${p}/comm`, 'utf8').trim();
      const roll = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(roll)?.[1] ?? 0);
      out.push({ pid: p, name, rssKB: kb('Rss'), pssKB: kb('Pss') });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * The memory of a set of processes with each file or shared mapping counted
 * once, in MB ({total, private}): every process's private pages, plus for
 * each mapped file the most any one of them has resident. Summed RSS counts shared libraries
 * once per process; PSS depends on what else on the machine maps them.
 */
export function footprint(pids) {
  let priv = 0;
  const shared = new Map();
  for (const p of pids) {
    let text;
    try {
      text = readFileSync(`/proc/${p}/smaps`, 'utf8');
    } catch {
      continue;
    }
    const perFile = new Map();
    let name = '';
    for (const line of text.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (!f[0]) continue;
      if (!f[0].endsWith(':') || f[0].includes('-')) {
        name = f.length >= 6 ? f.slice(5).join(' ') : '';
        continue;
      }
      const kb = Number(f[1]) || 0;
      if (f[0] === 'Private_Clean:' || f[0] === 'Private_Dirty:') priv += kb;
      else if (f[0] === 'Shared_Clean:' || f[0] === 'Shared_Dirty:') {
        const key = name || `anon:${p}`;
        perFile.set(key, (perFile.get(key) ?? 0) + kb);
      }
    }
    for (const [k, v] of perFile) if (v > (shared.get(k) ?? 0)) shared.set(k, v);
  }
  let total = priv;
  for (const v of shared.values()) total += v;
  return { total: total / 1024, private: priv / 1024 };
}

/** CPU time (user+system, in clock ticks) of a process tree. */
export function treeCPU(pid) {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks;
}

/** Waits until the tree uses under 5% of a CPU over 500 ms (or ms passes). */
export async function waitIdle(pid, ms = 120_000) {
  const deadline = Date.now() + ms;
  let last = treeCPU(pid);
  while (Date.now() < deadline) {
    await delay(500);
    const now = treeCPU(pid);
    if (now - last <= 2) return true; // 100 ticks/s: ≤ 2 ticks in 0.5 s
    last = now;
  }
  return false;
}

// Runs the test files (all of tests/, or those named) side by side, one per
// core (ERRAND_E2E_JOBS overrides), with one Chromium for the whole run:
// each file opens its own context in it (its own cookies, storage and
// pages) instead of starting a browser of its own, which was a third of a
// file's cost. Each file still starts its own model server and app.
// The longest files start first (LONGEST_FIRST), so the run does not end
// with one core on a long file and the other idle: `node --test` would run
// them in the order of their names, hence run() here.
//   node run.mjs [tests/NAME.test.mjs ...]   (under xvfb-run; see README.md)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, E2E_DIR } from './lib/harness.mjs';

/** The files that take longest (a whole run's figures, most first); the rest follow by name. */
const LONGEST_FIRST = ['thinking', 'long', 'provider', 'mcp', 'branches', 'connect', 'plan', 'agents', 'undo', 'restart', 'stall'];

const testsDir = path.join(E2E_DIR, 'tests');
const named = process.argv.slice(2).map((f) => path.resolve(f));
const all = named.length ? named : fs.readdirSync(testsDir).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join(testsDir, f));
const rank = (file) => {
  const i = LONGEST_FIRST.indexOf(path.basename(file, '.test.mjs'));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const files = all.toSorted((a, b) => rank(a) - rank(b));

const jobs = Number(process.env.ERRAND_E2E_JOBS || os.availableParallelism());
const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
process.env.ERRAND_E2E_BROWSER_WS = server.wsEndpoint();
let failed = false;
const stream = run({ files, concurrency: jobs });
stream.on('test:fail', () => {
  failed = true;
});
stream.compose(process.stdout.isTTY ? new spec() : tap).pipe(process.stdout);
await new Promise((resolve) => stream.on('end', resolve));
await server.close();
process.exitCode = failed ? 1 : 0;

// Runs the test files (all of tests/, or those named) side by side, one per
// core (ERRAND_E2E_JOBS overrides), with one Chromium for the whole run:
// each file opens its own context in it (its own cookies, storage and
// pages) instead of starting a browser of its own, which was a third of a
// file's cost. Each file still starts its own model server and app.
//   node run.mjs [tests/NAME.test.mjs ...]   (under xvfb-run; see README.md)
import { spawn } from 'node:child_process';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/harness.mjs';

const files = process.argv.slice(2);
const jobs = process.env.ERRAND_E2E_JOBS || String(os.availableParallelism());
const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
const child = spawn(process.execPath, ['--test', `--test-concurrency=${jobs}`, ...(files.length ? files : ['tests/'])], {
  stdio: 'inherit',
  env: { ...process.env, ERRAND_E2E_BROWSER_WS: server.wsEndpoint() },
});
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await server.close();
process.exit(code);

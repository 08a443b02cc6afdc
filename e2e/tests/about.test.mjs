// Settings → About: the version the build stamped, the data folder, and
// "Copy diagnostics" that names the model but holds no key.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { BIN_DIR, Stack } from '../lib/harness.mjs';
import { eventually } from '../lib/ui.mjs';

const stack = new Stack('about');
before(() => stack.start());
after(() => stack.stop());

/** The version `make build-dev` stamped into errand-dev, read from the binary's build settings. */
function stampedVersion() {
  const info = execFileSync('go', ['version', '-m', path.join(BIN_DIR, 'errand-dev')], { encoding: 'utf8' });
  const m = info.match(/buildinfo\.Version=([^\s"']+)/);
  assert.ok(m, `errand-dev carries no stamped version (build it with make build-dev):\n${info}`);
  return m[1];
}

test('Settings → About shows the stamped version, and the diagnostics hold no key', { timeout: 90_000 }, stack.test(async (page) => {
  const version = stampedVersion();
  assert.notEqual(version, 'dev', 'make build-dev stamps the git version');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const about = page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'About' });
  await about.getByRole('heading', { name: 'About', exact: true }).waitFor();

  // (The section reads them after it is shown: wait for all three.)
  await eventually(async () => {
    assert.equal(await about.getByTestId('about-version').textContent(), `Errand ${version}`);
    assert.ok((await about.textContent()).includes(stack.dataDir), 'the data folder is shown');
    assert.ok((await about.textContent()).includes(path.join(stack.dataDir, 'logs', 'errand.log')), 'the log file is shown');
  });
  assert.equal(await about.getByRole('button', { name: 'Open data folder' }).count(), 1);

  await about.getByRole('button', { name: 'Copy diagnostics' }).click();
  await about.getByText('Diagnostics copied.').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(copied.startsWith(`Errand ${version}\n`), `the diagnostics name the version: ${copied}`);
  assert.match(copied, /model mock-model/);
  assert.ok(!copied.includes('e2e-test-key'), `no key in the diagnostics: ${copied}`);
}));

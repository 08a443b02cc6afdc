// MCP servers: server-everything (the real npm package, installed by `make
// deps`) added in Settings → MCP servers, its echo tool called by the
// scripted model ([mcp-echo]), approved like a built-in tool, and its result
// shown; a broken Claude Desktop configuration is refused and saves nothing;
// quitting Errand leaves no server process behind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cards, waitForWaiting } from '../lib/agent.mjs';
import { ROOT, Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, transcript, waitForStatus } from '../lib/ui.mjs';

const EVERYTHING = path.join(ROOT, 'e2e', 'mcp-servers', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const TITLE = '[mcp-echo] say hello';

const stack = new Stack('mcp');
before(() => {
  assert.ok(existsSync(EVERYTHING), `${EVERYTHING} is missing: run \`make deps\` first`);
  return stack.start();
});
after(async () => {
  await stack.stop();
  // Errand quit: no server it started is left running.
  await eventually(async () => assert.deepEqual(serverProcesses(), [], 'server-everything outlived Errand'), {
    what: 'the MCP server to be gone after Errand quit',
  });
});

/** A screenshot for a person to look at, when ERRAND_E2E_SHOTS names a folder. */
async function shot(target, name) {
  const dir = process.env.ERRAND_E2E_SHOTS;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  await target.screenshot({ path: path.join(dir, `${name}.png`) });
}

function serverProcesses() {
  try {
    return execFileSync('pgrep', ['-f', EVERYTHING], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function openMcpSettings(page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const section = dialog.getByRole('region', { name: 'MCP servers' });
  await section.getByRole('heading', { name: 'MCP servers', exact: true }).waitFor();
  return { dialog, section };
}

test('add server-everything, call its echo tool, approve it and see the result', { timeout: 180_000 }, stack.test(async (page, t) => {
  const { dialog, section } = await openMcpSettings(page);
  await section.getByRole('button', { name: 'Add server' }).click();
  const form = section.getByRole('form', { name: 'New MCP server' });
  await form.getByLabel('Name').fill('everything');
  await form.getByLabel('Command').fill('node');
  await form.getByLabel('Arguments (one a line)').fill(`${EVERYTHING}\nstdio`);
  await form.getByRole('button', { name: 'Save server' }).click();

  const row = section.getByRole('listitem', { name: 'everything' });
  await eventually(async () => assert.match((await row.textContent()) ?? '', /Ready · \d+ tools/), {
    what: 'the server to be ready',
    timeout: 60_000,
  });
  // Its tools with their risk; echo is read-only by its annotations: make it ask.
  await row.getByText(/^Tools \(\d+\)$/).click();
  const risk = row.getByRole('combobox', { name: 'Risk of everything__echo' });
  assert.match((await risk.textContent()) ?? '', /As declared \(Read-only\)/);
  await risk.selectOption('writes');
  await eventually(async () => assert.equal(await risk.inputValue(), 'writes'));
  await section.scrollIntoViewIfNeeded();
  await shot(section, 'settings-mcp');

  // A broken Claude Desktop configuration says why and adds nothing.
  await section.getByRole('button', { name: 'Import from Claude Desktop' }).click();
  const imp = section.getByRole('group', { name: 'Import from Claude Desktop' });
  await imp.getByLabel('Claude Desktop configuration (JSON)').fill('{"mcpServers": {"broken": {"command": "x",}}}');
  await imp.getByRole('button', { name: 'Import pasted' }).click();
  await eventually(async () => assert.match((await imp.getByRole('alert').textContent()) ?? '', /not valid JSON/));
  assert.equal(await section.getByRole('listitem').count(), 1, 'nothing was imported');
  await imp.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  await sendMessage(page, TITLE);
  await waitForWaiting(stack, t, {
    title: TITLE,
    status: 'waiting_approval',
    check: async () => {
      const c = cards(page);
      await c.approval.waitFor({ state: 'visible', timeout: 2_000 });
      assert.match((await c.approval.textContent()) ?? '', /everything__echo/);
    },
  });
  const c = cards(page);
  await c.button(c.approval, 'Approve').click();
  await waitForStatus(page, 'Completed');
  await eventually(async () => {
    const items = await transcript(page);
    assert.ok(
      items.some((i) => i.kind === 'agent' && i.text.trim() === 'Result: Echo: hello from the MCP server'),
      `transcript: ${show(items)}`,
    );
  });
  // The call's row opens to its arguments and its result.
  const result = page.getByRole('button', { name: 'Used tool everything__echo' });
  await result.click();
  await eventually(async () =>
    assert.match((await page.locator('.tool-body').last().textContent()) ?? '', /Echo: hello from the MCP server/),
  );
  await shot(page, 'mcp-result');

  // An image a tool returns is shown as an image.
  await sendMessage(page, '[mcp-image] show me');
  await waitForStatus(page, 'Completed');
  await page.getByRole('button', { name: 'Used tool everything__get-tiny-image' }).click();
  const img = page.getByRole('img', { name: 'Image returned by the tool (image/png)' });
  await img.waitFor({ state: 'visible' });
  await eventually(async () => assert.ok((await img.evaluate((el) => el.naturalWidth)) > 0, 'the image decoded'));
  await shot(page, 'mcp-image');

  // Disabled, the server stops.
  const again = await openMcpSettings(page);
  const sw = again.section.getByRole('switch', { name: 'Enable everything' });
  await sw.click();
  await eventually(async () => assert.match((await again.section.getByRole('listitem', { name: 'everything' }).textContent()) ?? '', /Disabled/));
  await eventually(async () => assert.deepEqual(serverProcesses(), [], 'the disabled server is gone'));
  await sw.click();
  await eventually(
    async () => assert.match((await again.section.getByRole('listitem', { name: 'everything' }).textContent()) ?? '', /Ready/),
    { timeout: 60_000 },
  );
}));

// Model output is untrusted: a reply full of HTML, script and javascript:
// links executes nothing and links nowhere dangerous, while ordinary
// markdown (tables, lists, code with a copy button) renders.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Stack } from '../lib/harness.mjs';
import { eventually, sendMessage, show, slowText, transcript, ui, waitForStatus } from '../lib/ui.mjs';

const stack = new Stack('markdown');
before(() => stack.start());
after(() => stack.stop());

const pwned = (page) => page.evaluate(() => window.__pwned);

/**
 * What measure (run in the page on the reply's bubble) reads once it finds
 * what it looks for (it returns null until then), waiting up to a minute:
 * one script, so a stream cannot end between its readings.
 */
const midStream = (reply, what, measure) =>
  eventually(
    async () => {
      const read = await reply.evaluate(measure);
      assert.ok(read, what);
      return read;
    },
    { timeout: 60_000, what },
  );

test('a reply with <img onerror>, <script> and javascript: links executes nothing', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const startUrl = page.url();
  await sendMessage(page, '[xss] render this');
  await waitForStatus(page, 'Completed');
  await eventually(
    async () => {
      const items = await transcript(page);
      const agent = items.find((i) => i.kind === 'agent');
      assert.ok(agent, `transcript: ${show(items)}`);
      // The HTML is shown as text, not parsed.
      assert.match(agent.text, /<img src=x onerror="window\.__pwned=1">/);
      assert.match(agent.text, /<script>window\.__pwned=2<\/script>/);
      const complete = items.find((i) => i.kind === 'complete');
      assert.match(complete?.text ?? '', /<img src=x onerror="window\.__pwned=12">/);
    },
    { what: 'the reply, as text' },
  );

  const dom = await u.log.evaluate((log) => ({
    // (Errand's own icons are aria-hidden SVGs without handlers.)
    tags: ['img', 'script', 'iframe', 'svg:not([aria-hidden="true"])', 'object', 'embed', 'frame', 'form', 'style'].filter(
      (t) => log.querySelector(t),
    ),
    handlers: Array.from(log.querySelectorAll('*')).flatMap((el) =>
      Array.from(el.attributes)
        .filter((a) => a.name.startsWith('on'))
        .map((a) => `${el.tagName}.${a.name}`),
    ),
    hrefs: Array.from(log.querySelectorAll('[href], [src], [action], [formaction]')).map(
      (el) => el.getAttribute('href') ?? el.getAttribute('src') ?? el.getAttribute('action') ?? el.getAttribute('formaction'),
    ),
  }));
  assert.deepEqual(dom.tags, [], 'no active elements');
  assert.deepEqual(dom.handlers, [], 'no event handler attributes');
  for (const h of dom.hrefs) assert.match(h, /^https?:\/\//, `a link to ${h}`);
  assert.deepEqual(dom.hrefs, ['https://example.com/docs']);
  const safe = u.log.getByRole('link', { name: 'safe link' });
  assert.equal(await safe.getAttribute('target'), '_blank');
  assert.equal(await safe.getAttribute('rel'), 'noreferrer noopener');

  // Clicking what would have been links, and hovering the would-be handlers, does nothing.
  // The events are recorded as they reach the page, to prove they did: an
  // inline handler would have run while they were dispatched, and a link
  // would have been followed from the element clicked.
  await page.evaluate(() => {
    window.__seen = [];
    for (const type of ['click', 'mouseover']) {
      document.addEventListener(
        type,
        (e) => window.__seen.push({ type, text: e.target.textContent, link: Boolean(e.target.closest('a[href]')) }),
        true,
      );
    }
  });
  for (const name of ['javascript link', 'data link']) {
    await u.log.getByText(name, { exact: true }).click();
  }
  const cell = '<b onmouseover="window.__pwned=10">cell</b>';
  await u.log.getByText(cell).hover();
  const seen = await page.evaluate(() => window.__seen);
  for (const name of ['javascript link', 'data link']) {
    assert.ok(seen.some((e) => e.type === 'click' && e.text === name && !e.link), `a click on ${name}, not on a link: ${JSON.stringify(seen)}`);
  }
  assert.ok(seen.some((e) => e.type === 'mouseover' && e.text.includes(cell)), `the hover reached the cell: ${JSON.stringify(seen)}`);
  assert.equal(await pwned(page), undefined, 'window.__pwned was set');
  assert.deepEqual(dialogs, []);
  assert.equal(page.url(), startUrl, 'the window navigated');

  // The same text after a reload, from the database.
  await stack.open({ reload: true });
  await eventually(async () => {
    const items = await transcript(page);
    assert.ok(items.some((i) => i.kind === 'agent' && /__pwned=1/.test(i.text)), `transcript: ${show(items)}`);
  });
  assert.equal(await pwned(page), undefined, 'window.__pwned was set after a reload');
}));

test('markdown renders: a table, lists, highlighted code with a working copy button', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
  await sendMessage(page, '[markdown] plan the trip');
  await waitForStatus(page, 'Completed');
  const reply = u.log.locator('.bubble-agent').last();
  await eventually(async () => {
    assert.equal(await reply.getByRole('heading', { name: 'Plan' }).count(), 1);
    assert.deepEqual(await reply.getByRole('row').allInnerTexts(), ['City\tFlights\tPrice', 'Lisbon\t4\t€120', 'Porto\t2\t€95']);
    assert.equal(await reply.locator('ol > li').count(), 3);
    assert.equal(await reply.locator('strong').first().textContent(), 'three');
    // Highlighting loads on demand.
    assert.ok((await reply.locator('code.hljs .hljs-keyword').count()) > 0, 'the Go code is highlighted');
  });
  await reply.getByRole('button', { name: 'Copy code' }).click();
  await eventually(async () => {
    assert.equal(await reply.locator('.code-copy').textContent(), 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, 'func main() {\n\tfmt.Println("hello")\n}');
  });
  // The summary is markdown too.
  assert.equal(await u.log.locator('.card-complete strong').last().textContent(), 'plan');
}));

test('a long paragraph keeps its lines while it streams in pieces', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, '[slow] one long paragraph');
  const reply = u.log.locator('.bubble-agent').last();
  // The lines it has filled are set apart (LeadParagraph) as it grows.
  // Each piece is cut where a line starts: the paragraph is as tall as
  // its text in one paragraph of the same width (a cut inside a line
  // would end that line early and add one). Measured in one script, so
  // the paragraph cannot end its stream between the two readings.
  // (The first lines are set apart after about 240 of the 400 words, 12 s.)
  const shape = await midStream(reply, 'the streaming paragraph set apart in pieces', (bubble) => {
    const p = bubble.querySelector('p.md-set-apart');
    if (!p) return null;
    const whole = document.createElement('p');
    whole.textContent = p.textContent;
    p.after(whole);
    const out = { pieces: p.querySelectorAll(':scope > .md-lines').length, height: p.offsetHeight, whole: whole.offsetHeight };
    whole.remove();
    return out;
  });
  assert.ok(shape.pieces >= 2, `${shape.pieces} pieces`);
  assert.equal(shape.height, shape.whole, 'the paragraph in pieces is as tall as in one');
  await stack.hurrySlow();
  await waitForStatus(page, 'Completed');
  // Complete, it is one paragraph again (a selection copies it as one).
  await eventually(async () => assert.equal(await reply.locator('.md-lines').count(), 0));
  assert.match((await slowText(page)).text, /^word1 word2 /);
}));

test('a long code block keeps its lines while it streams in blocks', { timeout: 120_000 }, stack.test(async (page) => {
  const u = ui(page);
  await sendMessage(page, '[slow-code] write some code');
  const reply = u.log.locator('.bubble-agent').last();
  // Its lines are set apart in blocks (ChunkedText) as it grows, each
  // ending where a line does: the code is as tall as its text in one code
  // block, and every block but the last ends with a line end. Measured in
  // one script, so the stream cannot end between the readings.
  // (The second block starts after about 2 kB, 40 lines: 2 s; the stream lasts 20 s.)
  const shape = await midStream(reply, 'the streaming code in blocks', (bubble) => {
    const code = bubble.querySelector('pre > code.md-set-apart');
    if (!code || code.children.length < 2) return null;
    const pre = code.parentElement;
    const whole = document.createElement('pre');
    whole.append(document.createElement('code'));
    whole.firstChild.textContent = code.textContent;
    pre.after(whole);
    const blocks = Array.from(code.children, (b) => b.textContent);
    const out = { blocks: blocks.length, ended: blocks.slice(0, -1).every((b) => b.endsWith('\n')), height: pre.offsetHeight, whole: whole.offsetHeight };
    whole.remove();
    return out;
  });
  assert.ok(shape.ended, 'each block ends where a line does');
  assert.equal(shape.height, shape.whole, 'the code in blocks is as tall as in one');
  await stack.hurrySlow();
  await waitForStatus(page, 'Completed');
  // Complete, it is one text again (a selection copies it as one).
  await eventually(async () => assert.equal(await reply.locator('.md-lines').count(), 0));
  // (Its last lines reach the page in the frames after the task ends.)
  await eventually(async () =>
    assert.match(await reply.locator('pre code').textContent(), /^func slow\(\)\{\n\tv001=.*\n\tv400=.*\n\}\n?$/s),
  );
}));

// A streaming reply renders only what arrived: completed blocks are parsed
// once, and very large blocks are never given to the Markdown parser while
// they stream.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Every text the Markdown parser is given, in order.
vi.mock('react-markdown', async (importOriginal) => (await import('../test/markdownParses')).countingReactMarkdown(importOriginal));
import { parsed } from '../test/markdownParses';

import { fencedCode, LARGE_BLOCK, LIST_GROUP, listItems, Markdown, PLAIN_LEAD, TABLE_GROUP, tableRows, plainChunks, plainLead, plainMarkdown, plainParagraph, STREAMING_PLAIN } from './Markdown';
import { MarkdownBlock } from './MarkdownBlock';
import { grow, type Grown } from '../lib/grownText';

/** Renders text streamed step characters a frame, then whole (still streaming). */
async function streamed(text: string, step: number) {
  const view = render(<Markdown text="" streaming />);
  for (let end = 0; end < text.length; end += step) {
    view.rerender(<Markdown text={text.slice(0, end)} streaming />);
    await nextFrame();
  }
  view.rerender(<Markdown text={text} streaming />);
  await nextFrame();
  return view;
}

/** Lets the pending animation frame render the streaming block. */
async function nextFrame() {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

beforeEach(() => {
  parsed.length = 0;
});

describe('Markdown in blocks', () => {
  it('renders every block, in order, as siblings', () => {
    const { container } = render(<Markdown text={'# Title\n\nOne.\n\n- a\n- b\n\n```\ncode\n\nmore\n```\n\nEnd.'} />);
    const tags = Array.from(container.querySelector('.md')!.children).map((el) => el.tagName.toLowerCase());
    expect(tags).toEqual(['h1', 'p', 'ul', 'div', 'p']);
    expect(container.querySelector('pre')).toHaveTextContent(/^code\s+more$/);
  });

  it('a delta re-renders only the last block; completed blocks are parsed once', async () => {
    const done = Array.from({ length: 40 }, (_, i) => `Paragraph *${i}*.`).join('\n\n');
    const { rerender } = render(<Markdown text={`${done}\n\nThe *last*`} streaming />);
    expect(parsed).toHaveLength(41);
    parsed.length = 0;

    rerender(<Markdown text={`${done}\n\nThe *last* one`} streaming />);
    await nextFrame();
    expect(parsed).toEqual(['The *last* one']);

    parsed.length = 0;
    rerender(<Markdown text={`${done}\n\nThe *last* one.\n\nA *new*`} streaming />);
    await nextFrame();
    // The finished block once more (now among the completed ones), and the new one.
    expect(parsed.sort()).toEqual(['A *new*', 'The *last* one.']);
    expect(screen.getByText('0')).toBeInTheDocument();
    expect(screen.getByText('new')).toBeInTheDocument();
  });

  it('renders the streaming block at most once per frame', async () => {
    const { rerender } = render(<Markdown text="Hello, *w" streaming />);
    parsed.length = 0;
    for (const t of ['Hello, *wo', 'Hello, *wor', 'Hello, *worl', 'Hello, *world', 'Hello, *world*']) rerender(<Markdown text={t} streaming />);
    expect(parsed).toEqual([]);
    await nextFrame();
    expect(parsed).toEqual(['Hello, *world*']);
    expect(screen.getByText('world')).toBeInTheDocument();
    // Once complete, the text is shown at once.
    rerender(<Markdown text="Hello, world!" />);
    expect(screen.getByText('Hello, world!')).toBeInTheDocument();
  });

  it('held (a Stop on its way to the screen), a streaming reply shows what it showed and parses nothing, then catches up', async () => {
    const first = 'The *first* paragraph.';
    const more = `${first}\n\nThe *second* one`;
    const { rerender } = render(<Markdown text={first} streaming />);
    await nextFrame();
    parsed.length = 0;
    rerender(<Markdown text={more} streaming hold />);
    await nextFrame();
    expect(parsed).toEqual([]);
    expect(screen.getByText('first')).toBeInTheDocument();
    expect(screen.queryByText('second')).not.toBeInTheDocument();
    rerender(<Markdown text={more} streaming />);
    await nextFrame();
    expect(screen.getByText('second')).toBeInTheDocument();
    expect(document.querySelectorAll('.md p')).toHaveLength(2);
  });

  it('streaming a long reply parses about its length, not its length times the deltas', async () => {
    const reply = Array.from({ length: 300 }, (_, i) => `Paragraph ${i} says **something** of note.`).join('\n\n');
    const { rerender } = render(<Markdown text="" streaming />);
    for (let end = 0; end < reply.length; end += 301) {
      rerender(<Markdown text={reply.slice(0, end)} streaming />);
      await nextFrame();
    }
    rerender(<Markdown text={reply} />);
    const chars = parsed.reduce((n, t) => n + t.length, 0);
    expect(chars).toBeLessThan(reply.length * 3);
    // Shown from its start to its end (a reply this long renders the blocks near the viewport: WindowedBlocks.test.tsx).
    expect(document.querySelector('.md p')).toHaveTextContent('Paragraph 0 says something of note.');
    expect(document.querySelector('.md > :last-child p')).toHaveTextContent('Paragraph 299 says something of note.');
  });

  it('a reply streamed as the pieces each delta appended (grown) shows as the reply complete', () => {
    const reply = ['# Plan', 'First, *this*.', '- one\n- two\n\n- three', '```go\nfunc main() {\n\n}\n```', 'Then [that](https://example.com).', 'Done.'].join('\n\n');
    let grown: Grown | undefined;
    const { container, rerender } = render(<Markdown text="" streaming />);
    for (let end = 0, step = 1; end < reply.length; step = (step * 7) % 23 || 1) {
      const next = Math.min(reply.length, end + step);
      grown = grow(grown, next, reply.slice(end, next));
      end = next;
      rerender(<Markdown text={reply.slice(0, end)} grown={grown} streaming />);
    }
    rerender(<Markdown text={reply} />);
    expect(container.innerHTML).toBe(render(<Markdown text={reply} />).container.innerHTML);
  });

  it('a large reply renders: a huge block streams as plain text, a huge code block in a code frame', async () => {
    const big = 'word *x* '.repeat(STREAMING_PLAIN / 8);
    const { rerender, container } = render(<Markdown text={`Intro *x*.\n\n${big}`} streaming />);
    expect(container.querySelector('.md-streaming-plain')).toHaveTextContent(big.trim());
    expect(parsed).toEqual(['Intro *x*.']);
    // Complete, it is Markdown again.
    rerender(<Markdown text={`Intro *x*.\n\n${big}`} />);
    expect(container.querySelector('.md-streaming-plain')).toBeNull();
    expect(container.querySelectorAll('.md p')).toHaveLength(2);

    parsed.length = 0;
    const line = 'console.log("a line of generated code");\n';
    const code = line.repeat(Math.ceil((LARGE_BLOCK * 10) / line.length)); // about 1 MB
    rerender(<Markdown text={'```js\n' + code + '```'} />);
    expect(parsed).toEqual([]);
    expect(container.querySelector('.code-lang')).toHaveTextContent('js');
    expect(container.querySelector('pre')!.textContent).toBe(code);
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
  });
});

describe('a long list streaming', () => {
  it('parses only its last group of items in a frame', async () => {
    const list = items(40, (i) => `- item ${i} with a [link](https://example.com/${i})`);
    const { container } = await streamed(list, 50);
    expect(container.querySelectorAll('ul > li')).toHaveLength(40);
    expect(container.querySelectorAll('ul')).toHaveLength(1);
    const longest = Math.max(...parsed.map((t) => t.match(/^- /gm)?.length ?? 0));
    expect(longest, 'items parsed at once').toBeLessThanOrEqual(LIST_GROUP);
  });

  it('listItems finds where the items start, or null where a group could parse otherwise', () => {
    expect(listItems('- a\n  - nested\n- b\nlazy\n- c')).toEqual({ starts: [0, 15, 24], loose: false });
    expect(listItems('1. a\n2. b\n10. c')).toEqual({ starts: [0, 5, 10], loose: false });
    expect(listItems('- a\n\n- b\n  ```\n  code\n  ```\n\n- c\n\n')).toEqual({ starts: [0, 5, 29], loose: true });
    expect(listItems('- a\n+ b')).toBeNull();
    expect(listItems('1. a\n2) b')).toBeNull();
    expect(listItems('- a\n```\n- not an item\n```')).toBeNull();
    expect(listItems('- [ ] a task')).toBeNull();
    expect(listItems('Text, then\n- a list')).toBeNull();
    expect(listItems('**bold** start')).toBeNull();
    expect(listItems('- a\n> a quote after it')).toBeNull();
    expect(listItems('- a\n- - -')).toBeNull(); // a thematic break
    expect(listItems('- a\n# A heading')).toBeNull();
    // Blank lines within items: in a loose list each goes on its item; in a tight one, which list
    // they make loose (it, or a list within an item) only the parse tells.
    expect(listItems('1. a\n\n   more of a\n\n2. b')).toEqual({ starts: [0, 20], loose: true });
    expect(listItems('1. a\n\n b\n\n2. c')).toBeNull(); // "b" is not indented to its item's text: it ends the list
    expect(listItems(twoParagraphItems)?.starts).toHaveLength(20);
    expect(listItems('- a\n\n  more of a\n- b')).toBeNull();
    expect(listItems('- a\n  - inner\n\n  - inner\n- b')).toBeNull();
    expect(listItems('- a\n  ```\n  one\n\n  two\n  ```\n- b')).toBeNull();
  });

  it('complete, it is rendered from its groups: the end of the stream parses nothing again', async () => {
    const list = items(40, (i) => `- item ${i} with a [link](https://example.com/${i})`);
    const { rerender, container } = render(<Markdown text={list} streaming />);
    await nextFrame();
    parsed.length = 0;
    rerender(<Markdown text={list} />);
    expect(parsed).toEqual([]);
    expect(container.querySelectorAll('ul > li')).toHaveLength(40);
  });
});

describe('a long table streaming', () => {
  it('parses only its head and last group of rows in a frame', async () => {
    const text = table(60);
    const { container } = await streamed(text, 60);
    expect(container.querySelectorAll('table')).toHaveLength(1);
    expect(container.querySelectorAll('thead tr')).toHaveLength(1);
    expect(container.querySelectorAll('tbody tr')).toHaveLength(60);
    const longest = Math.max(...parsed.map((t) => t.trimEnd().split('\n').length));
    expect(longest, 'lines parsed at once').toBeLessThanOrEqual(2 + TABLE_GROUP);
  });

  it('tableRows finds where the body rows start, or null where the block is not a table', () => {
    expect(tableRows('| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |')).toEqual([20, 30]);
    expect(tableRows('a | b\n--- | ---\n1 | 2')).toEqual([16]);
    expect(tableRows('a | b\n---\nmore')).toBeNull(); // a heading: one delimiter cell for two
    expect(tableRows('a \\| b\n---|---')).toBeNull(); // an escaped pipe: one head cell
    expect(tableRows('No pipe\n---|---')).toBeNull();
    expect(tableRows('| a | b |\n| x | y |')).toBeNull();
    expect(tableRows('| a | b |')).toBeNull();
    expect(tableRows('| a | b |\n|---|---|\n| 1 | 2 |\na row without a pipe')).toEqual([20, 30]);
    expect(tableRows('| a | b |\n|---|---|\n| 1 | 2 |\n> a quote ends it')).toBeNull();
    expect(tableRows('| a | b |\n|---|---|\n| 1 | 2 |\n- a list ends it')).toBeNull();
    // A thematic break ends it, written in any of its ways; a row of dashes in cells does not.
    for (const rule of ['***', '---', '___', ' - - -', '*\t* *  ', '_ _ _ _', '   ---'])
      expect(tableRows(`| a | b |\n|---|---|\n| 1 | 2 |\n${rule}`), JSON.stringify(rule)).toBeNull();
    for (const row of ['| -- | - |', '**bold**', '--- x', '    ---', '*-*'])
      expect(tableRows(`| a | b |\n|---|---|\n| 1 | 2 |\n${row}`), JSON.stringify(row)).not.toBeNull();
  });
});

describe('a long block streaming without the parser', () => {
  /** The text of each block of lines in the element matched by selector. */
  const blocksOf = (container: HTMLElement, selector: string) =>
    Array.from(container.querySelectorAll(`${selector} > .md-lines`), (b) => b.textContent ?? '');

  it('a code block longer than a chunk has its lines in blocks, each ending where a line does; complete, one text', async () => {
    const line = 'console.log("a line of generated code");\n';
    const code = line.repeat(200) + 'console.log("the line being written';
    const { rerender, container } = render(<Markdown text={'```js\n' + code} streaming />);
    await nextFrame();
    const blocks = blocksOf(container, 'pre > code.md-set-apart');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.join('')).toBe(code);
    for (const b of blocks.slice(0, -1)) expect(b.endsWith('\n'), 'a block ends with a line').toBe(true);
    expect(container.querySelector('code')).toHaveClass('language-js');
    // Complete, its code is one text (a selection copies it as one).
    rerender(<Markdown text={'```js\n' + code + '");\n```'} />);
    expect(container.querySelector('.md-lines')).toBeNull();
    expect(container.querySelector('pre')!.textContent).toContain('the line being written");');
  });

  it('a short code block streams as one text, as the parser renders it', async () => {
    render(<Markdown text={'```js\nlet a = 1;\nlet b = 2;\n'} streaming />);
    await nextFrame();
    expect(document.querySelector('.md-lines')).toBeNull();
  });

  it('a huge block streaming as plain text has its lines in blocks', async () => {
    const big = 'a line of the huge block, with *x*\n'.repeat(STREAMING_PLAIN / 30);
    const { container } = render(<Markdown text={`Intro.\n\n${big}and the end`} streaming />);
    await nextFrame();
    const blocks = blocksOf(container, 'pre.md-streaming-plain.md-set-apart');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.join('')).toBe(`${big}and the end`);
    for (const b of blocks.slice(0, -1)) expect(b.endsWith('\n'), 'a block ends with a line').toBe(true);
  });
});

/** The HTML the parser itself gives a one-block text (no shortcut). */
function parsedHTML(text: string): string {
  const { container, unmount } = render(<MarkdownBlock text={text} highlight={false} />);
  const html = container.innerHTML;
  unmount();
  return html;
}

/** n lines, line(1) to line(n). */
const items = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i + 1)).join('\n');

/** A loose list of items of two paragraphs each. */
const twoParagraphItems = items(20, (i) => `- **Step ${i}**\n\n  What it does, in words.\n`);

/** A GFM table of n rows under its head and delimiter rows. */
const table = (n: number) =>
  `| Name | Kind | Size |\n|:--|:-:|--:|\n${items(n, (i) => `| item ${i} | **kind** \`${i % 7}\` | [${i} kB](https://example.com/${i}) |`)}`;

/** Words "w1 w2 …" as many as make about n characters. */
const words = (n: number) => Array.from({ length: Math.ceil(n / 5) }, (_, i) => `w${i + 1}`).join(' ');

describe('a streaming block renders as it will once complete', () => {
  const cases: Record<string, string> = {
    'a long paragraph of plain words': words(3 * PLAIN_LEAD),
    'a long paragraph, then formatting': `${words(2 * PLAIN_LEAD)}, and **bold**, \`code\`, a [link](https://example.com), www.example.com, a@b.example and *more`,
    'a long paragraph, then a list': `${words(2 * PLAIN_LEAD)} end.\n- one\n- two`,
    'a fenced code block': '```\nlet a = 1;\n\nlet b = 2;\n```',
    'a fenced code block still open, with a language': '~~~zzz title\nfn main() {\n  <b>&amp;</b>',
    'an empty fenced code block': '```zzz\n```',
    'an indented fence (parsed)': '  ```\n  code\n    more',
    'a fence with a line that does not close it': '````\na\n``` not closing\n```\nb',
    'a fence whose info is not a plain name (parsed)': '~~~ js`x {1}\ncode\t<tab>',
    'a fence closed, then text (parsed)': '```\ncode\n```\nText after',
    'a long list, in groups': items(20, (i) => `- **Item ${i}** with \`code\`, a [link](https://example.com/${i}) and www.example.com`),
    'a long list, a list within an item and a lazy line': items(20, (i) => (i === 9 ? `* item ${i}\n  * inner a\n  * inner b\nlazy line` : `* item ${i}`)),
    'a long ordered list from 3, its last item still empty': items(20, (i) => `${i + 2}) step ${i}`) + '\n23)',
    'a long loose list': items(20, (i) => `- item ${i}\n`),
    'a long list, loose by one item of two paragraphs (parsed whole)': items(20, (i) => (i === 15 ? `1. item ${i}\n\n   more of it` : `1. item ${i}`)),
    'a long list, loose by one blank line between two items': items(20, (i) => (i === 3 ? `- item ${i}\n` : `- item ${i}`)),
    'a long loose list of items of two paragraphs': twoParagraphItems,
    'a long loose list, a loose list within an item': items(20, (i) => (i === 10 ? `- item ${i}\n  - inner a\n\n  - inner b\n` : `- item ${i}\n`)),
    'a long loose list with code in its items': items(20, (i) => `- item ${i}:\n  \`\`\`sh\n  run ${i}\n  \`\`\`\n`),
    'a long list with a list within each item': items(20, (i) => `1. item ${i}\n   - inner a\n   - inner b`),
    'a long list, then another marker (parsed whole)': items(20, (i) => (i === 12 ? `+ item ${i}` : `- item ${i}`)),
    'a long table, aligned, with inline Markdown': table(40),
    'a long table, its last row half written': `${table(40)}\n| item 41 | **bo`,
    'a long table, rows of fewer and more cells, an escaped pipe': `${table(20)}\n| only one\n| a | b \\| c | d | e | f |\n${items(20, (i) => `| more ${i} | x |`)}`,
  };
  for (const [name, text] of Object.entries(cases)) {
    it(name, async () => {
      const streamed = render(<Markdown text={text} streaming />);
      await nextFrame();
      const complete = render(<Markdown text={text} />);
      expect(streamed.container.innerHTML).toBe(complete.container.innerHTML);
      expect(complete.container.querySelector('.md')!.innerHTML, 'as the parser renders it').toBe(parsedHTML(text));
    });
  }

  it('a long paragraph followed by any inline Markdown (40 made-up lines)', async () => {
    // A fixed pseudo-random sequence: the same lines every run.
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const pieces = ['word', ' ', '*', '_', '**', '`', '[', ']', '(https://a.example)', '<b>', '&amp;', '\\', '~~', 'www.x.example', 'a@b.example', 'http://c.example', ':', '!', '|', '  ', 'é', '1.', '#', '-'];
    for (let n = 0; n < 40; n++) {
      const rest = Array.from({ length: 30 }, () => pieces[next(pieces.length)]).join('');
      const text = `${words(PLAIN_LEAD + 200)} ${rest}`;
      const streamed = render(<Markdown text={text} streaming />);
      await nextFrame();
      const complete = render(<Markdown text={text} />);
      expect(streamed.container.innerHTML, text.slice(-200)).toBe(complete.container.innerHTML);
      expect(complete.container.querySelector('.md')!.innerHTML, text.slice(-200)).toBe(parsedHTML(text));
      streamed.unmount();
      complete.unmount();
    }
  });

  it('a paragraph streams as its plain words without the parser, then with it from the first mark the parser reads', async () => {
    const reply = 'Each step of the plan is explained here, in words of usual length.\nA second line of them, and **the end**.';
    const bold = reply.indexOf('**');
    // Ending mid-word, after a space, at the line end, before the mark.
    const shown = [1, 20, 21, reply.indexOf('\n') + 1, bold].map((end) => reply.slice(0, end));
    const asParsed = shown.map(parsedHTML);
    parsed.length = 0;
    const view = render(<Markdown text="" streaming />);
    for (const [i, text] of shown.entries()) {
      view.rerender(<Markdown text={text} streaming />);
      await nextFrame();
      expect(view.container.querySelector('.md')!.innerHTML, JSON.stringify(text)).toBe(asParsed[i]);
    }
    expect(parsed).toEqual([]);
    view.rerender(<Markdown text={reply.slice(0, bold + 4)} streaming />);
    await nextFrame();
    expect(parsed).toEqual([reply.slice(0, bold + 4)]);
    view.rerender(<Markdown text={reply} streaming />);
    await nextFrame();
    expect(view.container.innerHTML).toBe(render(<Markdown text={reply} />).container.innerHTML);
    expect(view.container.querySelector('strong')).toHaveTextContent('the end');
  });

  it('a long paragraph streams with the parser given only its words after the plain ones', async () => {
    const reply = `${words(6 * PLAIN_LEAD)} and **the end**.`;
    const { container } = await streamed(reply, 97);
    expect(container.querySelector('p')!.textContent).toBe(reply.replace(/\*\*/g, ''));
    expect(container.querySelector('strong')).toHaveTextContent('the end');
    const late = parsed.slice(Math.ceil(PLAIN_LEAD / 97) + 1);
    expect(Math.max(...late.map((t) => t.length))).toBeLessThan(120);
  });
});

describe('a paragraph of plain words', () => {
  const plain = [
    'Plain words, and more.',
    'First line of it\nsecond line, with (brackets), 50% and $3 + 4 = 7.',
    'Über café naïve — “quoted” ‘words’… and C# or A/B testing!',
    'Is it done?\nYes\nIt is',
    'Two  spaces inside',
  ];
  for (const text of plain) {
    it(`is shown as the parser shows it, without the parser: ${JSON.stringify(text.slice(0, 24))}`, () => {
      expect(plainParagraph(text)).toBe(true);
      const { container } = render(<Markdown text={text} />);
      expect(parsed).toEqual([]);
      expect(container.querySelector('.md')!.innerHTML).toBe(parsedHTML(text));
    });
  }

  it('is only one that needs nothing of the parser', () => {
    for (const text of [
      '- a list item',
      'Line\n1. an item',
      'Line\n- an item',
      'Title\n===',
      'Some *emphasis*',
      'snake_case',
      'a | b',
      'Visit www.example.com',
      'Mail a@b.example',
      'See http://a.example',
      'Hard break  \nnext',
      'Ends with a space ',
      'Tab\there',
      '  indented',
      '1 starts with a digit',
      'Windows line\r\nend',
    ])
      expect(plainParagraph(text), text).toBe(false);
    expect(plainMarkdown('One paragraph.\n\nAnother one\nof two lines.')).toBe(true);
    expect(plainMarkdown('One paragraph.\n\n- and a list')).toBe(false);
    expect(plainMarkdown('')).toBe(true);
  });
});

describe('helpers', () => {
  it('plainLead ends the plain words of a paragraph before the rest that needs the parser', () => {
    expect(plainLead('Plain words, and more.')).toBe(17);
    expect(plainLead('Some words *emphasis* here')).toBe(5);
    expect(plainLead('Visit www.example.com now')).toBe(6);
    expect(plainLead('Line one\nline two')).toBe(0);
    expect(plainLead('Line one\r- a list item')).toBe(0);
    expect(plainLead('- a list item')).toBe(0);
    expect(plainLead('1. an ordered item')).toBe(0);
    expect(plainLead('word')).toBe(0);
  });

  it('plain chunks end at line ends, and growing text changes only the last chunk', () => {
    const text = 'x'.repeat(9000) + '\n' + 'y'.repeat(9000) + '\n' + 'z';
    const first = plainChunks(text);
    expect(first.ends).toEqual([9001, 18002, 18003]);
    const next = plainChunks(text + 'zz', first);
    expect(next.ends).toEqual([9001, 18002, 18005]);
  });

  it('fencedCode reads a block that is one fenced code block, closed or still open', () => {
    expect(fencedCode('```py\nprint(1)\n```')).toEqual({ lang: 'py', code: 'print(1)' });
    expect(fencedCode('~~~\nopen\n\nstill')).toEqual({ lang: '', code: 'open\n\nstill' });
    expect(fencedCode('```\ncode\n```\nText after')).toBeNull();
    expect(fencedCode('Not code')).toBeNull();
  });
});

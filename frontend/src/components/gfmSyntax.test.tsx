// A block is parsed with only as much of GFM as it needs (faster): what
// the person sees must be the same as with all of remark-gfm, and every
// GFM construct must still reach it.
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { gfmNeeded } from './gfmSyntax';
import { remarkPluginsFor } from './MarkdownBlock';

const withGfm = (text: string) => renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfm, remarkBreaks]}>{text}</ReactMarkdown>);
const withoutGfm = (text: string) => renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkBreaks]}>{text}</ReactMarkdown>);
const asParsed = (text: string) => renderToStaticMarkup(<ReactMarkdown remarkPlugins={remarkPluginsFor(text)}>{text}</ReactMarkdown>);

const plain = [
  'Plain words, *emphasis*, **strong**, _under_, `code`, and a line\nbreak.',
  '# A heading\n\nText under it.',
  'Setext heading\n==============',
  '1. one\n2. two\n   - nested\n   - items\n\n* star item',
  '> a quote\n> on two lines',
  '```go\nfunc part1() int {\n\treturn 1\n}\n```',
  '    indented code',
  'Inline <b>html</b>, R & D, and 5 < 6',
  'snake_case_name and 2*3*4 and a \\* escaped star',
  'A hard  \nbreak, then a rule\n\n---',
  'Each step of the plan is explained here in words of usual length. **Done**.',
];

const gfm = [
  '| a | b |\n|---|---|\n| 1 | 2 |',
  'Some ~~struck~~ text',
  '- [ ] a task\n- [x] done',
  'Footnote[^1]\n\n[^1]: The note.',
  'Visit www.example.com today',
  'See https://example.com/page',
  'See HTTP://EXAMPLE.COM',
  'Write to someone@example.com',
  // A character reference is decoded before GFM looks for addresses.
  'Write to someone&#64;example.com',
  'Visit www&#46;example.com',
];

// GFM's syntax without a bare address: parsed without looking for one.
const syntaxOnly = [
  '| a | b |\n|:--|--:|\n| **1** | 2 |\n| `x` | ~~y~~ |',
  '- [ ] a task with *emphasis*\n- [x] done',
  'Footnote[^1] and ~struck~\n\n[^1]: The note.',
  '| name | R & D |\n|---|---|\n| www | example.com |',
];

// GFM's syntax and a bare address, written or by a character reference.
const withAddress = [
  '| who | where |\n|---|---|\n| someone@example.com | www.example.com/a |',
  '| who |\n|---|\n| mailto:a@b.co and xmpp:a@b.co/r |',
  '| who |\n|---|\n| someone&#64;example.com |',
  '- [ ] mail https&#58;//example.com\n- [x] done',
];

describe('GFM only where its syntax is', () => {
  it.each(plain)('a block without it looks the same without GFM: %j', (text) => {
    expect(gfmNeeded(text)).toBe('none');
    expect(withoutGfm(text)).toBe(withGfm(text));
    expect(asParsed(text)).toBe(withGfm(text));
  });

  it.each(gfm)('a block with it goes to GFM, which changes how it looks: %j', (text) => {
    expect(gfmNeeded(text)).not.toBe('none');
    expect(withoutGfm(text)).not.toBe(withGfm(text));
    expect(asParsed(text)).toBe(withGfm(text));
  });

  it.each(syntaxOnly)('a block with its syntax and no address looks the same without the search for one: %j', (text) => {
    expect(gfmNeeded(text)).toBe('syntax');
    expect(asParsed(text)).toBe(withGfm(text));
  });

  it('parsed for its syntax only, a block has no search for addresses: one only that search finds stays text', () => {
    const syntaxOnly = remarkPluginsFor('| a |\n|---|\n| b |');
    const text = '| who |\n|---|\n| someone&#64;example.com |';
    const html = renderToStaticMarkup(<ReactMarkdown remarkPlugins={syntaxOnly}>{text}</ReactMarkdown>);
    expect(html).toContain('<td>someone@example.com</td>');
    expect(withGfm(text)).toContain('<a href="mailto:someone@example.com">');
  });

  it.each(withAddress)('a block with its syntax and an address has the address linked: %j', (text) => {
    expect(gfmNeeded(text)).toBe('all');
    expect(asParsed(text)).toContain('<a href=');
    expect(asParsed(text)).toBe(withGfm(text));
  });
});

// A block without GFM's syntax is rendered without remark-gfm (faster):
// what the person sees must be the same as with it, and every GFM
// construct must still reach remark-gfm.
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { needsGfm } from './gfmSyntax';

const withGfm = (text: string) => renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfm, remarkBreaks]}>{text}</ReactMarkdown>);
const withoutGfm = (text: string) => renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkBreaks]}>{text}</ReactMarkdown>);

const plain = [
  'Plain words, *emphasis*, **strong**, _under_, `code`, and a line\nbreak.',
  '# A heading\n\nText under it.',
  'Setext heading\n==============',
  '1. one\n2. two\n   - nested\n   - items\n\n* star item',
  '> a quote\n> on two lines',
  '```go\nfunc part1() int {\n\treturn 1\n}\n```',
  '    indented code',
  'Entities &amp; &copy; and <b>inline html</b>',
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
];

describe('GFM only where its syntax is', () => {
  it.each(plain)('a block without it looks the same without GFM: %j', (text) => {
    expect(needsGfm(text)).toBe(false);
    expect(withoutGfm(text)).toBe(withGfm(text));
  });

  it.each(gfm)('a block with it goes to GFM, which changes how it looks: %j', (text) => {
    expect(needsGfm(text)).toBe(true);
    expect(withoutGfm(text)).not.toBe(withGfm(text));
  });
});

import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { describe, expect, it } from 'vitest';
import { splitAppended, splitBlocks, type BlockSplit } from './markdownBlocks';

const blocksOf = (text: string) => splitBlocks(text).blocks;
/** What a split says, whichever splits it shares its arrays with. */
const view = (s: BlockSplit) => ({ blocks: s.blocks, starts: s.starts, frozen: s.frozen, firstDefinition: s.firstDefinition, rest: s.rest });

/** What the parser makes of some Markdown, without the newlines between elements. */
function html(md: string): string {
  return renderToStaticMarkup(<ReactMarkdown remarkPlugins={[remarkGfm, remarkBreaks]}>{md}</ReactMarkdown>).replace(
    />\n+</g,
    '><',
  );
}

/** The same page, one block at a time. */
function htmlInBlocks(md: string): string {
  return blocksOf(md).map(html).join('');
}

const DOCS: Record<string, string> = {
  paragraphs: 'First paragraph\nwith a second line.\n\nSecond paragraph.\n\n\n\nThird, after blank lines.',
  fenceWithBlankLines: 'Before.\n\n```go\nfunc main() {\n\n\n\tfmt.Println("hi")\n}\n```\n\nAfter.',
  tildeFence: '~~~\n```\nnot a fence end\n\n```\n~~~\n\nAfter.',
  longerClosingFence: '````\n```\n\nstill code\n`````\n\nAfter.',
  unclosedFence: 'Text.\n\n```py\nprint(1)\n\nprint(2)',
  looseList: '- one\n\n- two\n\n  more of two\n\n- three\n\nAfter the list.',
  orderedList: '1. first\n\n2. second\n\n10. tenth',
  nestedList: '- a\n  - b\n\n    deeper\n- c',
  listAfterParagraph: 'Intro:\n- a\n\n- b',
  indentedCode: 'Para.\n\n    indented code\n\n    more code\n\nAfter.',
  quote: '> quoted\n>\n> still quoted\n\nAfter.',
  table: '| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter.',
  headings: '# Title\n\nText.\n\n## Section\n\n---\n\nEnd.',
  spacesOnBlankLines: 'One.\n   \nTwo.\n\t\nThree.',
};

describe('splitBlocks', () => {
  it('splits at blank lines, without the blank lines', () => {
    expect(blocksOf(DOCS.paragraphs!)).toEqual([
      'First paragraph\nwith a second line.',
      'Second paragraph.',
      'Third, after blank lines.',
    ]);
    expect(blocksOf('')).toEqual([]);
    expect(blocksOf('\n\n  \n')).toEqual([]);
  });

  it('keeps a fenced code block whole, blank lines and all', () => {
    expect(blocksOf(DOCS.fenceWithBlankLines!)).toEqual([
      'Before.',
      '```go\nfunc main() {\n\n\n\tfmt.Println("hi")\n}\n```',
      'After.',
    ]);
    expect(blocksOf(DOCS.tildeFence!)).toEqual(['~~~\n```\nnot a fence end\n\n```\n~~~', 'After.']);
    expect(blocksOf(DOCS.longerClosingFence!)).toEqual(['````\n```\n\nstill code\n`````', 'After.']);
    expect(blocksOf(DOCS.unclosedFence!)).toEqual(['Text.', '```py\nprint(1)\n\nprint(2)']);
  });

  it('keeps a list whole: loose items, indented continuations, nested lists', () => {
    expect(blocksOf(DOCS.looseList!)).toEqual(['- one\n\n- two\n\n  more of two\n\n- three', 'After the list.']);
    expect(blocksOf(DOCS.orderedList!)).toHaveLength(1);
    expect(blocksOf(DOCS.nestedList!)).toHaveLength(1);
    expect(blocksOf(DOCS.listAfterParagraph!)).toHaveLength(1);
    expect(blocksOf('Para.\n\n- a\n- b')).toEqual(['Para.', '- a\n- b']);
  });

  it('flags link reference and footnote definitions', () => {
    expect(splitBlocks('See [x].\n\n[x]: https://example.com').firstDefinition).toBe(1);
    expect(splitBlocks('Note[^1].\n\n[^1]: The note.').firstDefinition).toBe(1);
    expect(splitBlocks('- [x] done\n\n[not a def] text').firstDefinition).toBe(-1);
  });

  it.each(Object.keys(DOCS))('renders %s block by block exactly as in one piece', (name) => {
    const md = DOCS[name]!;
    expect(htmlInBlocks(md)).toBe(html(md));
  });

  it('split incrementally, as a reply streams, gives the split of the whole text', () => {
    const doc = Object.values(DOCS).join('\n\n');
    for (const step of [1, 3, 7, 40]) {
      let split: BlockSplit | undefined;
      for (let end = 0; end <= doc.length; end = Math.min(doc.length, end + step)) {
        const text = doc.slice(0, end);
        split = splitBlocks(text, split);
        expect(split.blocks, `at ${end} of ${doc.length}, step ${step}`).toEqual(blocksOf(text));
        if (end === doc.length) break;
      }
    }
  });

  it('split from the appended text alone gives the split of the whole text, the same strings kept', () => {
    const doc = Object.values(DOCS).join('\n\n');
    for (const step of [1, 3, 7, 40]) {
      let split = splitBlocks('');
      for (let end = 0; end < doc.length; ) {
        const next = Math.min(doc.length, end + step);
        const text = doc.slice(0, next);
        const grown = splitAppended(text, split, doc.slice(end, next));
        const whole = splitBlocks(text);
        const at = `at ${next} of ${doc.length}, step ${step}`;
        expect(view(grown), at).toEqual(view(whole));
        // The frozen blocks are shared with the split it grew from, not copied.
        expect(grown.sameUpTo(split), at).toBe(split.frozen);
        for (let i = 0; i < split.frozen; i++) expect(grown.block(i), at).toBe(split.block(i));
        split = grown;
        end = next;
      }
    }
  });

  it('freezes the blocks that later text cannot change, and splits only what follows them again', () => {
    const first = splitBlocks('One.\n\nTwo.\n\nThr');
    // "Two." may not change; "Thr" is not a whole line yet, so the boundary before it may.
    expect(first.frozen).toBe(1);
    const next = splitBlocks('One.\n\nTwo.\n\nThree.\n\nFo', first);
    expect(next.blocks).toEqual(['One.', 'Two.', 'Three.', 'Fo']);
    expect(next.starts).toEqual([0, 6, 12, 20]);
    expect(next.frozen).toBe(2);
    // A text that does not extend the last one is split from the start.
    expect(splitBlocks('Other.\n\nText.', next).blocks).toEqual(['Other.', 'Text.']);
    // Nor one as long whose frozen text changed, nor a shorter one.
    expect(splitBlocks('Uno.\n\nTwo.\n\nThree.\n\nFo', next).blocks).toEqual(['Uno.', 'Two.', 'Three.', 'Fo']);
    expect(splitBlocks('One.\n\nTwo', next).blocks).toEqual(['One.', 'Two']);
  });

  it('splits grown from one split with other text keep their own blocks', () => {
    const base = splitBlocks('One.\n\nTwo.\n\nThr');
    const a = splitAppended('One.\n\nTwo.\n\nThree.\n\nFour.\n\nF', base, 'ee.\n\nFour.\n\nF');
    const b = splitAppended('One.\n\nTwo.\n\nThrice.\n\nX\n\nY', base, 'ice.\n\nX\n\nY');
    expect(b.blocks).toEqual(['One.', 'Two.', 'Thrice.', 'X', 'Y']);
    expect(a.blocks).toEqual(['One.', 'Two.', 'Three.', 'Four.', 'F']);
    expect(splitAppended('One.\n\nTwo.\n\nThree.\n\nFour.\n\nFive', a, 'ive').blocks).toEqual(['One.', 'Two.', 'Three.', 'Four.', 'Five']);
  });

  it('does not freeze a boundary before the next line is complete', () => {
    // "1" could still become "1. item", which continues the list above.
    const partial = splitBlocks('- a\n\n1');
    expect(partial.blocks).toEqual(['- a', '1']);
    expect(partial.frozen).toBe(0);
    expect(splitBlocks('- a\n\n1. b\n\nc\n\nd', partial).blocks).toEqual(['- a\n\n1. b', 'c', 'd']);
  });
});

// Markdown for model output, which is untrusted: the window can call Go,
// so an injected script or a javascript: link would be an attack.
// - No raw HTML: without rehype-raw, react-markdown turns HTML in the text
//   into plain text (it is shown, never parsed).
// - URLs: only http(s), mailto and in-page #anchors survive (safeHref);
//   anything else is shown as text, not as a link.
// - Images are never loaded (a remote image URL can carry data out of the
//   conversation); they become links.
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { copyText } from '../lib/clipboard';
import { nextFrame } from '../lib/frames';
import { appendedSince, type Grown } from '../lib/grownText';
import { lineStartBefore } from '../lib/lineStart';
import { WINDOW_BLOCKS } from './blockWindow';
import { lazyComponent } from './LazyView';
import { BlockSplit, EMPTY_SPLIT, extendsText, fenceCloses, fenceOpen, isBlank, listMarker, splitAppended, splitBlocks } from './markdownBlocks';

// The parser and its plugins (MarkdownBlock.tsx, with the window of a long
// reply) are not on a first screen without replies: they load when a block
// is first shown, or when preloadMarkdown is called (once the first screen
// is painted, or while the first conversation's messages are read). Until
// then a block suspends: the transcript shows its loading line (MessageList).
const MarkdownBlock = lazyComponent(() => import('./MarkdownBlock').then((m) => m.MarkdownBlock));
const WindowedBlocks = lazyComponent(() => import('./MarkdownBlock').then((m) => m.WindowedBlocks));

/** Loads the Markdown parser now, so that the first reply waits for nothing. */
export function preloadMarkdown(): Promise<void> {
  return Promise.all([MarkdownBlock.preload(), WindowedBlocks.preload()]).then(() => undefined);
}

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL if it is safe to link to (http, https, mailto or #anchor), else null. */
export function safeHref(url: string | null | undefined): string | null {
  if (typeof url !== 'string') return null;
  const u = url.trim();
  if (u === '') return null;
  if (u.startsWith('#')) return /^#[\w\-.:%]*$/.test(u) ? u : null;
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return null; // relative paths would navigate the app window itself
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

/** Copies text; says Copied (or Copy failed) for a moment. */
export function CopyButton({ text, label = 'Copy code', className = 'code-copy' }: { text: string; label?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const onClick = async () => {
    const ok = await copyText(text);
    setState(ok ? 'copied' : 'failed');
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), 1600);
  };
  return (
    <button type="button" className={className} onClick={() => void onClick()} aria-label={label}>
      <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
        {state === 'copied' ? (
          <path d="M3.5 8.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
        ) : (
          <>
            <rect x="5.5" y="5.5" width="8" height="8" rx="1.6" fill="none" stroke="currentColor" strokeWidth="1.3" />
            <path d="M10.5 3.5v-.4A1.6 1.6 0 0 0 8.9 1.5H4.1A1.6 1.6 0 0 0 2.5 3.1v4.8a1.6 1.6 0 0 0 1.6 1.6h.4" fill="none" stroke="currentColor" strokeWidth="1.3" />
          </>
        )}
      </svg>
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}

/** The languages the fences of a text name ("```go" → "go"), in order. */
const NAMED_FENCE = /(?:^|\n) {0,3}(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/g;

export function fenceLanguages(text: string): string[] {
  return Array.from(text.matchAll(NAMED_FENCE), (m) => m[1] ?? '');
}

// ---- Rendering in blocks ----
//
// Parsing Markdown costs about its length, so a long reply is rendered
// block by block (markdownBlocks.ts): a block that is complete is rendered once,
// and a delta renders only the last, growing block. A streaming reply's
// text changes at most once a frame (stores/sync.ts); the last block
// follows it in the next frame, so one frame does not both lay out the row
// and parse the block (TailBlock).
// A very large block is shown without the Markdown parser: as code in a
// code frame when it is one fenced code block, else (while it streams) as
// plain text; either way in chunks, so that a delta changes only the last.
// While it streams, a fenced code block of any size is shown that way; and
// a long paragraph's leading run of plain words is shown as its text with
// only the rest parsed, streaming or not: each renders as the parser would
// render it, so a frame costs the delta, not the block's length, and the
// end of a reply does not parse its last paragraph again.

/** A streaming block larger than this (UTF-16 units) is not parsed until it is complete. */
export const STREAMING_PLAIN = 24_000;
/** A block larger than this is not highlighted, and one fenced code block this large is never parsed. */
export const LARGE_BLOCK = 100_000;
/** Completed blocks per memoized group. */
const GROUP = 32;
/** Plain text is cut into chunks of about this size, at line ends. */
const PLAIN_CHUNK = 8_192;
/** Lines in blocks of their own are cut into chunks of about this size. */
const LINES_CHUNK = 2_048;
/** A paragraph's leading plain words are shown unparsed once they are this long. */
export const PLAIN_LEAD = 1_024;

/**
 * The block split of a text that grows, reusing the split of what it had
 * before; given what each delta appended (grown), only that is read. It
 * starts from the split last committed: a render React drops (a background
 * render a newer delta interrupted) leaves nothing behind, so the frame's
 * own render, which shows the text committed, never splits it again (that
 * split the whole reply from its start: a 5 MB reply's longest tasks).
 */
function useBlockSplit(text: string, grown: Grown | undefined): BlockSplit {
  const committed = useRef<{ split: BlockSplit; grown: Grown | undefined }>({ split: EMPTY_SPLIT, grown: undefined });
  const split = useMemo(() => {
    const { split: prev, grown: before } = committed.current;
    if (prev.text === text) return prev;
    const appended = grown && grown.length === text.length ? appendedSince(grown, before) : undefined;
    return appended === undefined ? splitBlocks(text, prev) : splitAppended(text, prev, appended);
  }, [text, grown]);
  useLayoutEffect(() => {
    committed.current = { split, grown };
  });
  return split;
}

interface Chunks {
  text: string;
  ends: number[];
}

/**
 * Chunk ends of a plain text: a chunk ends at the first line end after
 * PLAIN_CHUNK characters, so the ends found in a prefix stay the same as
 * the text grows and only the last chunk changes.
 */
export function plainChunks(text: string, prev: Chunks = { text: '', ends: [] }, sep = '\n', size = PLAIN_CHUNK): Chunks {
  const ends = extendsText(text, prev.text) ? prev.ends.slice(0, -1) : [];
  let from = ends[ends.length - 1] ?? 0;
  for (;;) {
    const nl = from + size < text.length ? text.indexOf(sep, from + size) : -1;
    if (nl < 0) break;
    ends.push(nl + 1);
    from = nl + 1;
  }
  ends.push(text.length);
  return { text, ends };
}

const PlainChunk = memo(function PlainChunk({ text }: { text: string }) {
  return <>{text}</>;
});

const LinesChunk = memo(function LinesChunk({ text }: { text: string }) {
  return <span className="md-lines">{text}</span>;
});

/**
 * Text in chunks ending at sep: when it grows, only the last chunk changes
 * in the page. With lines (text whose lines end with a line end, in a
 * white-space: pre block), each chunk is a block of its own as well, so
 * the page lays out only the last chunk's lines as it grows, not all of
 * them: a chunk ends where a line does, so every line stays as it was.
 */
function ChunkedText({ text, sep, lines = false }: { text: string; sep?: string; lines?: boolean }) {
  const chunks = useRef<Chunks | undefined>(undefined);
  chunks.current = plainChunks(text, chunks.current, sep, lines ? LINES_CHUNK : PLAIN_CHUNK);
  const Chunk = lines ? LinesChunk : PlainChunk;
  let from = 0;
  return chunks.current.ends.map((end, i) => {
    const chunk = text.slice(from, end);
    from = end;
    return <Chunk key={i} text={chunk} />;
  });
}

/** A block that is one fenced code block: its language and code (up to the closing fence, if any yet). */
export function fencedCode(block: string): { lang: string; code: string } | null {
  const nl = block.indexOf('\n');
  const first = nl < 0 ? block : block.slice(0, nl);
  const open = fenceOpen(first);
  if (!open) return null;
  let code = nl < 0 ? '' : block.slice(nl + 1);
  const lastNl = code.lastIndexOf('\n');
  const lastLine = code.slice(lastNl + 1);
  if (fenceCloses(lastLine, open)) code = lastNl < 0 ? '' : code.slice(0, lastNl);
  else if (code.split('\n').some((line) => fenceCloses(line, open))) return null; // text follows the fence
  return { lang: /^\S*/.exec(open.info)![0], code };
}

/**
 * A fenced code block as the parser renders it (MarkdownBlock's CodeBlock,
 * not highlighted), without the parser. While it streams, once longer than
 * a chunk, its lines are in blocks (ChunkedText); complete, it is one text
 * again (a selection copies it as one).
 */
function LargeCode({ lang, code, streaming }: { lang: string; code: string; streaming: boolean }) {
  const language = lang ? `language-${lang}` : '';
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-lang">{lang || 'code'}</span>
        <CopyButton text={code} />
      </div>
      <pre>
        {streaming && code.length > LINES_CHUNK ? (
          <code className={`${language} md-set-apart`}>
            <ChunkedText text={code} lines />
          </code>
        ) : (
          <code className={language || undefined}>
            <ChunkedText text={code} />
            {code && '\n'}
          </code>
        )}
      </pre>
    </div>
  );
}

/** A streaming block that is one fenced code block the parser would show verbatim (its fence not indented, a plain language name). */
function streamingCode(block: string): { lang: string; code: string } | null {
  if (block[0] !== '`' && block[0] !== '~') return null;
  const code = fencedCode(block);
  return code && /^[\w+#.-]*$/.test(code.lang) ? code : null;
}

/**
 * Characters with no meaning to the parser inside a line (no emphasis,
 * code, links, autolinks, HTML, entities or escapes), and no line end.
 */
const PLAIN_CHAR = `[\\p{L}\\p{M}\\p{N} .,;?!'"()\\-/%+=$#\\u2013\\u2014\\u2018-\\u201d\\u2026]`;
const PLAIN_RUN = new RegExp(`^${PLAIN_CHAR}*`, 'u');
const LETTER = /\p{L}/u;

/**
 * Where a paragraph's leading plain words end: text[0:cut] has only
 * PLAIN_RUN characters (and no "www."), ends with a space, and a letter
 * follows. Parsing text[cut:] alone then gives the same inline content as
 * after that text, so the paragraph is that text followed by it. 0 unless
 * the block is one line starting with a letter (a list, a heading, …).
 */
export function plainLead(block: string): number {
  // One line starting with a letter is a paragraph; a line after it could start a list.
  if (!LETTER.test(block[0] ?? '') || /[\r\n]/.test(block)) return 0;
  let run = PLAIN_RUN.exec(block)![0];
  const www = run.search(/www\./i);
  if (www >= 0) run = run.slice(0, www);
  for (let i = run.lastIndexOf(' '); i > 0; i = run.lastIndexOf(' ', i - 1)) {
    if (LETTER.test(block[i + 1] ?? '')) return i + 1;
  }
  return 0;
}

/** Lines of plain words: each starts with a letter and holds PLAIN_RUN characters only, none ending in a space. */
const PLAIN_LINE = `\\p{L}${PLAIN_CHAR}*(?<! )`;
const PLAIN_LINES = new RegExp(`^${PLAIN_LINE}(?:\\n${PLAIN_LINE})*$`, 'u');

/**
 * Whether a block is a paragraph of plain words (PLAIN_LINES, no "www."):
 * the parser would show it as its lines with a line break between each
 * (remark-breaks), which PlainParagraph shows without the parser.
 */
export function plainParagraph(block: string): boolean {
  return block.length <= LARGE_BLOCK && PLAIN_LINES.test(block) && !/www\./i.test(block);
}

/** Whether a complete text renders without the parser: each of its blocks is a plain paragraph (or it has none), and they are too few to be windowed. */
export function plainMarkdown(text: string): boolean {
  const split = splitBlocks(text);
  return split.count <= WINDOW_BLOCKS && split.blocks.every(plainParagraph);
}

/** A plain paragraph (plainParagraph) as the parser renders it. */
function PlainParagraph({ text }: { text: string }) {
  return <p>{text.split('\n').flatMap((line, i) => (i === 0 ? [line] : [<br key={i} />, `\n${line}`]))}</p>;
}

/** While a paragraph streams, its lines are set apart once its last ones are this tall (px)… */
const SETTLE_HEIGHT = 480;
/** …all but this many of them (the last could still change as words arrive). */
const SETTLE_KEEP = 3;

/** A paragraph's lines set apart: the pieces, their text joined, and the paragraph's width they were cut at. */
interface Settled {
  pieces: readonly string[];
  text: string;
  width: number;
}

const NONE_SETTLED: Settled = { pieces: [], text: '', width: 0 };

/**
 * A long paragraph: its leading plain words as text, in chunks, and the
 * rest parsed. While it streams, the lines it has filled are set apart in
 * blocks of their own, each cut where a line starts (lineStartBefore), so
 * the lines are the same: WebKit lays out all of a paragraph's lines again
 * when it grows, and of a block only its own. Into one paragraph of 8,000
 * words a page took twice the CPU of the same words in paragraphs of 100.
 */
function LeadParagraph({ text, cut, streaming }: { text: string; cut: number; streaming: boolean }) {
  const lead = text.slice(0, cut);
  const [kept, setSettled] = useState(NONE_SETTLED);
  // Complete, it is one paragraph again: a selection copies it as one.
  const settled = streaming && extendsText(lead, kept.text) ? kept : NONE_SETTLED;
  const from = settled.text.length;
  // The lines not set apart: the paragraph's, or its last block's.
  const last = useRef<HTMLElement | null>(null);
  const setLast = useCallback((el: HTMLElement | null) => void (last.current = el), []);
  useLayoutEffect(() => {
    const el = last.current;
    if (!streaming || !el) return;
    // At another width the blocks' last lines would end early or late:
    // they are set apart again.
    const width = el.closest('p')?.clientWidth ?? 0;
    if (settled.pieces.length > 0 && width !== settled.width) {
      setSettled(NONE_SETTLED);
      return;
    }
    if (el.offsetHeight < SETTLE_HEIGHT) return;
    // (Its text starts with the plain words, then what the parser made of the rest.)
    const at = lineStartBefore(el, SETTLE_KEEP);
    if (at <= 0 || at >= cut - from) return;
    const piece = lead.slice(from, from + at);
    setSettled({ pieces: [...settled.pieces, piece], text: settled.text + piece, width });
  });
  const rest = (
    <>
      <ChunkedText text={lead.slice(from)} sep=" " />
      <MarkdownBlock text={text.slice(cut)} highlight={false} inline />
    </>
  );
  if (settled.pieces.length === 0) return <p ref={setLast}>{rest}</p>;
  return (
    <p className="md-set-apart">
      {settled.pieces.map((t, i) => (
        <span key={i} className="md-lines">
          {t}
        </span>
      ))}
      <span ref={setLast} className="md-lines">
        {rest}
      </span>
    </p>
  );
}

// A long list or table is one block, and parsing a block costs about its
// length: while one streamed, every frame parsed it whole. So its items
// (or rows) are parsed in groups, each rendered as the whole block renders
// those items, in one list (or table): a frame parses the growing group,
// and the end of a stream parses nothing again (but a list's code, which
// is highlighted then). Where a group could parse otherwise than the whole
// (a line that starts another block, a task item, a blank line within an
// item), the block is parsed whole.

/** A list's items are parsed in groups of this many. */
export const LIST_GROUP = 8;
/** A table's body rows are parsed in groups of this many. */
export const TABLE_GROUP = 16;
/** What starts a block other than a paragraph, a list item or a fence: a quote, a heading, HTML, a thematic break. */
// A thematic break is written with its three characters first, not as
// ([-*_])(?:[ \t]*\1){2,}: JavaScriptCore runs a repeated group (or a
// backreference) in its interpreter, 1.6 µs a line, and a streaming table
// or list has each of its lines tested at every frame; this takes 0.03.
const OTHER_START = /^ {0,3}(?:>|#{1,6}(?:[ \t]|$)|<|-[ \t]*-[ \t]*-[- \t]*$|\*[ \t]*\*[ \t]*\*[* \t]*$|_[ \t]*_[ \t]*_[_ \t]*$)/;

/** Whether the line starts a block other than a paragraph or a list item. */
const startsOtherBlock = (line: string) => OTHER_START.test(line) || fenceOpen(line) !== null;

/** The lines of text from `from` on, each with where it starts (a line end at the text's end starts none). */
function linesFrom(text: string, from: number): { line: string; at: number }[] {
  const out = [];
  for (let at = from; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    out.push({ line: text.slice(at, end), at });
    at = end + 1;
  }
  return out;
}

/** A list's items: where each starts, and whether the list is loose. */
export interface ListItems {
  starts: number[];
  loose: boolean;
}

/** Where an item's text starts in its first line (the marker and up to 4 spaces after it), or -1 with a tab. */
function itemTextOffset(line: string): number {
  const m = /^(?:[-*+]|\d{1,9}[.)])([ \t]*)/.exec(line)!;
  if (m[1]!.includes('\t')) return -1;
  const marker = m[0].length - m[1]!.length;
  return m[1]!.length === 0 || m[1]!.length > 4 ? marker + 1 : m[0].length;
}

/**
 * A list's items, if the block is one list whose items parse apart as they
 * do in the whole list: every line at the margin starts an item with the
 * first item's marker or goes on an item's text (so no fence is at the
 * margin, whose lines could look like items), there is no task item (whose
 * list gets a class), and a line after a blank line starts an item or is
 * indented to its item's text. The list is loose where a blank line comes
 * before an item. A list with blank lines only within its items is parsed
 * whole: which list they make loose (it, or a list within an item), only
 * the parse tells. Else null.
 */
export function listItems(block: string): ListItems | null {
  // An item at the margin (an indented one goes on the item before it).
  const marker = (line: string) => (line[0] === ' ' ? null : listMarker(line));
  const first = marker(block);
  if (!first || /\[[ xX]\]/.test(block)) return null;
  const starts = [];
  let blank = false;
  let loose = false;
  let within = false;
  let offset = 0;
  for (const { line, at } of linesFrom(block, 0)) {
    if (line[0] !== ' ' && line[0] !== '\t' && startsOtherBlock(line)) return null;
    const m = marker(line);
    if (m !== null && m !== first) return null;
    const empty = isBlank(line);
    if (m !== null) {
      starts.push(at);
      offset = itemTextOffset(line);
      if (offset < 0) return null;
      loose ||= blank;
    } else if (blank && !empty) {
      const indent = /^ */.exec(line)![0].length;
      if (indent < offset || line[indent] === '\t') return null;
      within = true;
    }
    blank = empty;
  }
  return within && !loose ? null : { starts, loose };
}

/**
 * A list, its items parsed in groups of LIST_GROUP, each group as the whole
 * list renders those items (MarkdownBlock's items), in one list. Loose,
 * every group is.
 */
function ListInGroups({ text, items, highlight }: { text: string; items: ListItems; highlight: boolean }) {
  const { starts, loose } = items;
  const groups = [];
  for (let g = 0; g < starts.length; g += LIST_GROUP) {
    const part = text.slice(starts[g], starts[g + LIST_GROUP] ?? text.length);
    const which = g === 0 ? 'items' : 'more-items';
    // Only a group with code renders again to be highlighted.
    const code = highlight && /```|~~~/.test(part);
    groups.push(<MarkdownBlock key={g} text={part} highlight={code} part={which} loose={loose} />);
  }
  const number = /^\d+/.exec(text);
  if (!number) return <ul>{groups}</ul>;
  const start = Number(number[0]);
  return <ol start={start === 1 ? undefined : start}>{groups}</ol>;
}

/** A table row's cells: split at its pipes (not at an escaped one), without the pipes at its ends. */
function cellCount(row: string): number {
  return row.trim().replace(/^\|/, '').replace(/(?<!\\)\|$/, '').split(/(?<!\\)\|/).length;
}

/**
 * Where a table's body rows start, if the block is one GFM table: a head
 * row with a pipe, a delimiter row of as many cells, then rows (any line
 * that starts no other block). Else null.
 */
export function tableRows(block: string): number[] | null {
  const head = block.indexOf('\n');
  const delimiter = head < 0 ? -1 : block.indexOf('\n', head + 1);
  if (delimiter < 0) return null;
  const headRow = block.slice(0, head);
  const delimiterRow = block.slice(head + 1, delimiter);
  if (!headRow.includes('|') || !/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/.test(delimiterRow)) return null;
  if (cellCount(headRow) !== cellCount(delimiterRow)) return null;
  const rows = linesFrom(block, delimiter + 1);
  // A line that starts another block, a list item too, ends the table.
  if (rows.some(({ line }) => startsOtherBlock(line) || listMarker(line) !== null)) return null;
  return rows.map(({ at }) => at);
}

/**
 * A table, its body rows parsed in groups of TABLE_GROUP, each with the
 * table's head and delimiter rows (so its cells are aligned and counted as
 * in the whole table) and rendered without them, in one table.
 */
function TableInGroups({ text, rows }: { text: string; rows: number[] }) {
  const head = text.slice(0, rows[0]);
  const groups = [];
  for (let g = 0; g < rows.length; g += TABLE_GROUP) {
    const part = text.slice(rows[g], rows[g + TABLE_GROUP] ?? text.length);
    groups.push(<MarkdownBlock key={g} text={head + part} highlight={false} part="table-rows" />);
  }
  return (
    <div className="md-table-wrap">
      <table>
        <MarkdownBlock text={head.trimEnd()} highlight={false} part="table-head" />
        <tbody>{groups}</tbody>
      </table>
    </div>
  );
}

/** A long list or table in groups (streaming or not: its code highlighted once complete), else null. */
function inGroups(text: string, streaming: boolean) {
  if (text.length > LARGE_BLOCK) return null;
  const items = listItems(text);
  if (items && items.starts.length > LIST_GROUP) return <ListInGroups text={text} items={items} highlight={!streaming} />;
  const rows = tableRows(text);
  if (rows && rows.length > TABLE_GROUP) return <TableInGroups text={text} rows={rows} />;
  return null;
}

/** One block, by size and shape: Markdown (a long list or table in groups), or (large) code or plain text without the parser. */
function Block({ text, streaming }: { text: string; streaming: boolean }) {
  if (streaming) {
    const code = streamingCode(text);
    if (code) return <LargeCode lang={code.lang} code={code.code} streaming />;
  } else if (plainParagraph(text)) return <PlainParagraph text={text} />;
  // Streaming or not (the end of a stream parsed a 25 kB paragraph again: a 100 ms frame).
  const cut = plainLead(text);
  if (cut >= PLAIN_LEAD) return <LeadParagraph text={text} cut={cut} streaming={streaming} />;
  if (streaming && text.length <= STREAMING_PLAIN) {
    // Plain words so far, as the parser shows them (it drops a paragraph's trailing spaces).
    const words = text.trimEnd();
    if (plainParagraph(words)) return <PlainParagraph text={words} />;
  }
  const grouped = inGroups(text, streaming);
  if (grouped) return grouped;
  if (text.length > LARGE_BLOCK || (streaming && text.length > STREAMING_PLAIN)) {
    const code = fencedCode(text);
    if (code) return <LargeCode lang={code.lang} code={code.code} streaming={streaming} />;
    if (streaming)
      return (
        <pre className="md-streaming-plain md-set-apart">
          <ChunkedText text={text} lines />
        </pre>
      );
  }
  // Highlighting waits until the block is complete.
  return <MarkdownBlock text={text} highlight={!streaming && text.length <= LARGE_BLOCK} />;
}

/** Completed blocks, a group at a time: React visits one element per group, not per block. */
const BlockGroup = memo(
  function BlockGroup({ blocks }: { blocks: readonly string[] }) {
    return (
      <>
        {blocks.map((b, i) => (
          <Block key={i} text={b} streaming={false} />
        ))}
      </>
    );
  },
  (a, b) => a.blocks.length === b.blocks.length && a.blocks.every((t, i) => t === b.blocks[i]),
);

/** A completed block of a long reply (WindowedBlocks). */
const renderDone = (text: string) => <Block text={text} streaming={false} />;

/** While live, the text as of the last animation frame (one render per frame); otherwise the text. */
function useFrameText(text: string, live: boolean): string {
  const [shown, setShown] = useState(text);
  const latest = useRef(text);
  latest.current = text;
  const cancelFrame = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!live || shown === text || cancelFrame.current !== null) return;
    cancelFrame.current = nextFrame(() => {
      cancelFrame.current = null;
      setShown(latest.current);
    });
  });
  useEffect(() => () => cancelFrame.current?.(), []);
  return live ? shown : text;
}

/**
 * The last block: while the reply streams, it follows the text once per
 * frame, the frame after the text changed. Rendering it with the text
 * (the store already changes once a frame) put the row's layout and the
 * block's parse in one frame: into 10,000 messages (Chromium) three of six
 * streams had a 67 ms gap between frames, against none of three over 50 ms
 * this way, and 1.1-1.7 layouts a frame against 0.8-1.2.
 */
function TailBlock({ text, streaming }: { text: string; streaming: boolean }) {
  return <Block text={useFrameText(text, streaming)} streaming={streaming} />;
}

/**
 * Renders untrusted markdown safely, block by block: when the text grows,
 * only its last block is rendered again. `streaming`: the text is a reply
 * being written.
 */
export const Markdown = memo(function Markdown({
  text,
  grown,
  className,
  streaming = false,
  hold = false,
}: {
  text: string;
  /** While text grows by appending: what each piece appended (then only that is read). */
  grown?: Grown;
  className?: string;
  streaming?: boolean;
  /** While true, the text shown stays as last rendered, and what came since waits (see AgentReply). */
  hold?: boolean;
}) {
  // The text grows once a frame (the deltas received meanwhile are applied
  // together): the window renders the latest in the background (a
  // transition that yields to clicks and keys, and skips what it has fallen
  // behind on), so that Stop and Esc answer at once however fast a long
  // reply arrives. Rendered in the frame instead, Chromium laid a streaming
  // page out about twice a frame and Stop waited longer.
  const rendered = useRef({ text, grown });
  const held = hold ? rendered.current : { text, grown };
  const shown = useDeferredValue(held.text);
  const shownGrown = useDeferredValue(held.grown);
  useLayoutEffect(() => {
    rendered.current = { text: shown, grown: shownGrown };
  });
  const split = useBlockSplit(shown, shownGrown);
  // Link references and footnotes resolve across blocks: such a text is one block.
  const view = split.firstDefinition >= 0 ? BlockSplit.whole(shown) : split;
  const n = view.count;
  const tail = n > 0 && <TailBlock text={view.block(n - 1)} streaming={streaming} />;
  if (n > WINDOW_BLOCKS) {
    // A long reply: only the blocks near the viewport are in the page.
    return (
      <WindowedBlocks
        text={shown}
        split={view}
        className={`text md${className ? ` ${className}` : ''}`}
        renderBlock={renderDone}
        tail={tail}
      />
    );
  }
  const blocks = view.blocks;
  const groups: string[][] = [];
  for (let i = 0; i < n - 1; i += GROUP) groups.push(blocks.slice(i, Math.min(i + GROUP, n - 1)));
  return (
    <div className={`text md${className ? ` ${className}` : ''}`}>
      {groups.map((g, i) => (
        <BlockGroup key={i} blocks={g} />
      ))}
      {tail}
    </div>
  );
});

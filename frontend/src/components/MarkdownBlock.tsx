// The Markdown parser (react-markdown, remark-gfm) and what renders its
// output: one block of a reply (Markdown.tsx splits replies into blocks),
// and the window of a long reply's blocks (WindowedBlocks).
// It is loaded the first time a block is shown, not before the window's
// first screen (Markdown.tsx), with the safety rules Markdown.tsx states.
import { memo, useEffect, useSyncExternalStore, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { openExternal } from '../events';
import { CopyButton, fenceLanguages, safeHref } from './Markdown';
import { gfmNeeded } from './gfmSyntax';

export { WindowedBlocks } from './WindowedBlocks';

function urlTransform(url: string): string {
  return safeHref(url) ?? '';
}

interface HastLike {
  type?: string;
  value?: string;
  children?: HastLike[];
  properties?: { className?: unknown };
  position?: { start: { offset?: number } };
}

function hastText(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(hastText).join('');
}

function codeLanguage(pre: HastLike | undefined): string {
  const code = pre?.children?.find((c) => c.type === 'element');
  const cls = code?.properties?.className;
  const list = Array.isArray(cls) ? cls.map(String) : [];
  const lang = list.find((c) => c.startsWith('language-'));
  return lang ? lang.slice('language-'.length) : '';
}

type WithNode<T extends keyof React.JSX.IntrinsicElements> = ComponentPropsWithoutRef<T> & { node?: HastLike };

function CodeBlock({ node, children }: WithNode<'pre'>) {
  const lang = codeLanguage(node);
  const text = hastText(node).replace(/\n$/, '');
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-lang">{lang || 'code'}</span>
        <CopyButton text={text} />
      </div>
      <pre>{children}</pre>
    </div>
  );
}

/** A click on an external link opens the person's browser. */
function openInBrowser(url: string) {
  return (e: { preventDefault(): void }) => {
    e.preventDefault();
    openExternal(url);
  };
}

function Link({ href, children, node: _node, ...rest }: WithNode<'a'>) {
  const safe = safeHref(href);
  if (!safe) return <span className="md-unsafe-link">{children}</span>;
  const external = !safe.startsWith('#');
  return (
    <a
      {...rest}
      href={safe}
      title={external ? safe : undefined}
      {...(external ? { target: '_blank', rel: 'noreferrer noopener', onClick: openInBrowser(safe) } : {})}
    >
      {children}
    </a>
  );
}

function Image({ src, alt }: WithNode<'img'>) {
  const label: ReactNode = `Image: ${alt || 'untitled'}`;
  const safe = typeof src === 'string' ? safeHref(src) : null;
  if (!safe || safe.startsWith('#')) return <span className="md-image">{label}</span>;
  return (
    <a className="md-image" href={safe} title={safe} target="_blank" rel="noreferrer noopener" onClick={openInBrowser(safe)}>
      {label}
    </a>
  );
}

function Table({ node: _node, ...props }: WithNode<'table'>) {
  return (
    <div className="md-table-wrap">
      <table {...props} />
    </div>
  );
}

const components: Components = {
  a: Link as Components['a'],
  img: Image as Components['img'],
  pre: CodeBlock as Components['pre'],
  table: Table as Components['table'],
};

/** Inline content on its own: a paragraph's rest after its plain words (Markdown.tsx, LeadParagraph). */
function Inline({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}
const inlineComponents: Components = { ...components, p: Inline as Components['p'] };

/**
 * A list's items on their own, for the list that holds them (Markdown.tsx,
 * ListInGroups): the text's own list (the one at its start) gives its
 * items, a list within an item stays one. After the first group, the line
 * end the list begins with is left out, as the whole list has one between
 * two items.
 */
function listItemsOf(Tag: 'ul' | 'ol', first: boolean) {
  return function Items({ node, children, ...rest }: WithNode<'ul'>) {
    if (node?.position?.start.offset !== 0) return <Tag {...rest}>{children}</Tag>;
    return <>{first || !Array.isArray(children) ? children : children.slice(1)}</>;
  };
}

/** A table's head or body rows on their own, for the table that holds them (Markdown.tsx, TableInGroups). */
function Children({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}
function Nothing() {
  return null;
}

/** The components that render a part of a block (MarkdownBlock's part). */
const partComponents = {
  items: { ...components, ul: listItemsOf('ul', true), ol: listItemsOf('ol', true) } as Components,
  'more-items': { ...components, ul: listItemsOf('ul', false), ol: listItemsOf('ol', false) } as Components,
  'table-head': { ...components, table: Children } as Components,
  'table-rows': { ...components, table: Children, thead: Nothing, tbody: Children } as Components,
};

// remark-gfm builds its syntax extensions (tables, autolinks, footnotes,
// …) each time a processor is made, and react-markdown makes a processor
// for every render: that was about three quarters of the cost of rendering
// a short block. They are built once, here, and handed to each processor,
// which only reads them (as one processor reused for many texts would).
const gfmData: Record<string, unknown[]> = {};
remarkGfm.call({ data: () => gfmData } as unknown as ThisParameterType<typeof remarkGfm>);

/** remark-gfm, with the extensions built once. */
function remarkGfmBuilt(this: { data(): Record<string, unknown> }) {
  addExtensions(this.data(), gfmData);
}

// The same without the search for bare addresses in the parsed text
// (gfmSyntax.ts): the autolink literals' extension, which runs it as a
// transform, is given none.
type FromMarkdownExtension = { enter?: Record<string, unknown>; transforms?: unknown[] };
const gfmDataNoAddressSearch = {
  ...gfmData,
  fromMarkdownExtensions: (gfmData.fromMarkdownExtensions as FromMarkdownExtension[][]).map((list) =>
    list.map((ext) => (ext.enter?.literalAutolink ? { ...ext, transforms: [] } : ext)),
  ),
};

/** remark-gfm's syntax, with the extensions built once, not searching the parsed text for bare addresses. */
function remarkGfmSyntax(this: { data(): Record<string, unknown> }) {
  addExtensions(this.data(), gfmDataNoAddressSearch);
}

function addExtensions(data: Record<string, unknown>, from: Record<string, unknown[]>) {
  for (const [key, extensions] of Object.entries(from)) {
    const list = (data[key] ??= []) as unknown[];
    list.push(...extensions);
  }
}

/** Makes the text's list loose (its items' paragraphs in <p>), as the whole list it is part of is. */
function remarkLooseList() {
  return (tree: { children: { type: string; spread?: boolean }[] }) => {
    if (tree.children[0]?.type === 'list') tree.children[0].spread = true;
  };
}

type RemarkPlugins = NonNullable<Options['remarkPlugins']>;
/** By what of GFM a block needs (gfmSyntax.ts): a block without GFM's syntax gets the same tree, parsed faster. */
const basePlugins = {
  all: [remarkGfmBuilt, remarkBreaks],
  syntax: [remarkGfmSyntax, remarkBreaks],
  none: [remarkBreaks],
} as Record<ReturnType<typeof gfmNeeded>, RemarkPlugins>;
const loosePlugins = Object.fromEntries(
  Object.entries(basePlugins).map(([k, plugins]) => [k, [...plugins, remarkLooseList]]),
) as typeof basePlugins;

/** The remark plugins a block's text is parsed with (loose: as part of a loose list). */
export function remarkPluginsFor(text: string, loose = false): RemarkPlugins {
  return (loose ? loosePlugins : basePlugins)[gfmNeeded(text)];
}

// Syntax highlighting (components/highlighter.ts: highlight.js's 37
// common languages) is loaded on demand: the highlighter the first time a
// finished block has a fenced code block that names one of its languages,
// and each language the first time a block names it. Until then, and if it
// fails to load, code is shown plain. Blocks that name no language, or one
// it does not know, stay plain.
type RehypePlugins = NonNullable<Options['rehypePlugins']>;
type Highlighter = typeof import('./highlighter');
let highlighter: Promise<Highlighter> | null = null;
/** The plugins to render with; a new array each time a language arrives, so that blocks render again. */
let highlightPlugins: RehypePlugins | null = null;
const highlightListeners = new Set<() => void>();

function loadHighlighter(): Promise<Highlighter> {
  highlighter ??= import('./highlighter');
  return highlighter;
}

/** Loads the grammars the fences name (e.g. ["go", "py"]); tells the blocks once each has arrived. */
function loadLanguages(langs: readonly string[]): void {
  loadHighlighter().then(
    (h) => {
      for (const name of new Set(langs.map(h.grammarOf))) {
        if (!name) continue;
        void h.loadGrammar(name).then(() => {
          highlightPlugins = [h.rehypeHighlightLoaded];
          highlightListeners.forEach((l) => l());
        });
      }
    },
    (err: unknown) => console.warn('Errand: code highlighting is unavailable', err),
  );
}

function subscribeHighlighter(cb: () => void) {
  highlightListeners.add(cb);
  return () => void highlightListeners.delete(cb);
}

function noSubscription() {
  return () => {};
}

function useHighlighter(text: string | null): RehypePlugins | undefined {
  const langs = text === null ? [] : fenceLanguages(text);
  const needed = langs.length > 0;
  // Only blocks with named code listen: the others do not render again when a language loads.
  const plugins = useSyncExternalStore(needed ? subscribeHighlighter : noSubscription, () =>
    needed ? highlightPlugins : null,
  );
  const key = langs.join(' ');
  useEffect(() => {
    if (key) loadLanguages(key.split(' '));
  }, [key]);
  return needed && plugins ? plugins : undefined;
}

/**
 * One block's Markdown; the same text is never rendered twice. inline: a
 * paragraph's content, without its <p>. part: what of it is rendered, for
 * a block parsed in parts (Markdown.tsx): a list's items without their
 * list ('items': its first items, 'more-items': the others; loose: as in a
 * loose list), a table's head or its body rows without their table.
 */
export const MarkdownBlock = memo(function MarkdownBlock({
  text,
  highlight,
  inline = false,
  part,
  loose = false,
}: {
  text: string;
  highlight: boolean;
  inline?: boolean;
  part?: keyof typeof partComponents;
  loose?: boolean;
}) {
  const rehypePlugins = useHighlighter(highlight ? text : null);
  return (
    <ReactMarkdown
      remarkPlugins={remarkPluginsFor(text, loose)}
      rehypePlugins={rehypePlugins}
      components={inline ? inlineComponents : part ? partComponents[part] : components}
      urlTransform={urlTransform}
      skipHtml={false}
    >
      {text}
    </ReactMarkdown>
  );
});


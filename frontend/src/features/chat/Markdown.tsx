// Markdown for model output, which is untrusted: the window can call Go,
// so an injected script or a javascript: link would be an attack.
// - No raw HTML: without rehype-raw, react-markdown turns HTML in the text
//   into plain text (it is shown, never parsed).
// - URLs: only http(s), mailto and in-page #anchors survive (safeHref);
//   anything else is shown as text, not as a link.
// - Images are never loaded (a remote image URL can carry data out of the
//   conversation); they become links.
import {
  memo,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentPropsWithoutRef,
  type ReactNode,
} from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import remarkGfm from 'remark-gfm';
import { openExternal } from '../../events';
import { copyText } from '../../lib/clipboard';

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

function urlTransform(url: string): string {
  return safeHref(url) ?? '';
}

interface HastLike {
  type?: string;
  value?: string;
  children?: HastLike[];
  properties?: { className?: unknown };
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

function CopyButton({ text }: { text: string }) {
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
    <button type="button" className="code-copy" onClick={() => void onClick()} aria-label="Copy code">
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

const remarkPlugins = [remarkGfm, remarkBreaks];

// Syntax highlighting (rehype-highlight: highlight.js's 37 common
// languages) is loaded on demand, the first time a reply has a fenced code
// block, so that it does not weigh on startup. Until then, and if it fails
// to load, code is shown plain. detect: false — only blocks that name a
// language are highlighted; unknown languages stay plain.
type RehypePlugins = NonNullable<Options['rehypePlugins']>;
let highlightPlugins: RehypePlugins | null = null;
let highlightLoad: Promise<void> | null = null;
const highlightListeners = new Set<() => void>();

function loadHighlighter(): Promise<void> {
  if (!highlightLoad) {
    highlightLoad = import('rehype-highlight').then(
      (m) => {
        highlightPlugins = [[m.default, { detect: false }]];
        highlightListeners.forEach((l) => l());
      },
      (err: unknown) => console.warn('Errand: code highlighting is unavailable', err),
    );
  }
  return highlightLoad;
}

function subscribeHighlighter(cb: () => void) {
  highlightListeners.add(cb);
  return () => void highlightListeners.delete(cb);
}

const FENCE = /(^|\n) {0,3}(```|~~~)/;

function useHighlighter(needed: boolean): RehypePlugins | undefined {
  const plugins = useSyncExternalStore(subscribeHighlighter, () => highlightPlugins);
  useEffect(() => {
    if (needed && !highlightPlugins) void loadHighlighter();
  }, [needed]);
  return needed && plugins ? plugins : undefined;
}

/** Renders untrusted markdown safely. Memoized on the text. */
export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const rehypePlugins = useHighlighter(FENCE.test(text));
  return (
    <div className={`text md${className ? ` ${className}` : ''}`}>
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components}
        urlTransform={urlTransform}
        skipHtml={false}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

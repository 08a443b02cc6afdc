// Syntax highlighting for code blocks that name their language, with the
// grammars of highlight.js (through lowlight). This module and each
// grammar are loaded on first use (Markdown.tsx): the window's start
// loads none of them, and a reply with Go code loads lowlight and Go.
import { createLowlight, type LanguageFn } from 'lowlight';

type Loader = () => Promise<{ default: LanguageFn }>;

// The 37 languages of lowlight's "common" set, each its own chunk
// ("hljs-grammar/…" is highlight.js's lib/languages, see vite.config.ts).
const grammars: Record<string, Loader> = {
  arduino: () => import('hljs-grammar/arduino'),
  bash: () => import('hljs-grammar/bash'),
  c: () => import('hljs-grammar/c'),
  cpp: () => import('hljs-grammar/cpp'),
  csharp: () => import('hljs-grammar/csharp'),
  css: () => import('hljs-grammar/css'),
  diff: () => import('hljs-grammar/diff'),
  go: () => import('hljs-grammar/go'),
  graphql: () => import('hljs-grammar/graphql'),
  ini: () => import('hljs-grammar/ini'),
  java: () => import('hljs-grammar/java'),
  javascript: () => import('hljs-grammar/javascript'),
  json: () => import('hljs-grammar/json'),
  kotlin: () => import('hljs-grammar/kotlin'),
  less: () => import('hljs-grammar/less'),
  lua: () => import('hljs-grammar/lua'),
  makefile: () => import('hljs-grammar/makefile'),
  markdown: () => import('hljs-grammar/markdown'),
  objectivec: () => import('hljs-grammar/objectivec'),
  perl: () => import('hljs-grammar/perl'),
  php: () => import('hljs-grammar/php'),
  'php-template': () => import('hljs-grammar/php-template'),
  plaintext: () => import('hljs-grammar/plaintext'),
  python: () => import('hljs-grammar/python'),
  'python-repl': () => import('hljs-grammar/python-repl'),
  r: () => import('hljs-grammar/r'),
  ruby: () => import('hljs-grammar/ruby'),
  rust: () => import('hljs-grammar/rust'),
  scss: () => import('hljs-grammar/scss'),
  shell: () => import('hljs-grammar/shell'),
  sql: () => import('hljs-grammar/sql'),
  swift: () => import('hljs-grammar/swift'),
  typescript: () => import('hljs-grammar/typescript'),
  vbnet: () => import('hljs-grammar/vbnet'),
  wasm: () => import('hljs-grammar/wasm'),
  xml: () => import('hljs-grammar/xml'),
  yaml: () => import('hljs-grammar/yaml'),
};

// The other names the grammars answer to (each grammar's own aliases).
const aliases: Record<string, string> = {
  ino: 'arduino', sh: 'bash', zsh: 'bash', h: 'c', cc: 'cpp', 'c++': 'cpp', 'h++': 'cpp', hpp: 'cpp', hh: 'cpp',
  hxx: 'cpp', cxx: 'cpp', cs: 'csharp', 'c#': 'csharp', patch: 'diff', golang: 'go', gql: 'graphql', toml: 'ini',
  jsp: 'java', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', jsonc: 'json',
  json5: 'json', kt: 'kotlin', kts: 'kotlin', pluto: 'lua', mk: 'makefile', mak: 'makefile', make: 'makefile',
  md: 'markdown', mkdown: 'markdown', mkd: 'markdown', mm: 'objectivec', objc: 'objectivec', 'obj-c': 'objectivec',
  'obj-c++': 'objectivec', 'objective-c++': 'objectivec', pl: 'perl', pm: 'perl', text: 'plaintext',
  txt: 'plaintext', py: 'python', gyp: 'python', ipython: 'python', pycon: 'python-repl', rb: 'ruby',
  gemspec: 'ruby', podspec: 'ruby', thor: 'ruby', irb: 'ruby', rs: 'rust', console: 'shell', shellsession: 'shell',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', vb: 'vbnet', html: 'xml',
  xhtml: 'xml', rss: 'xml', atom: 'xml', xjb: 'xml', xsd: 'xml', xsl: 'xml', plist: 'xml', wsf: 'xml', svg: 'xml',
  yml: 'yaml',
};

/** The grammar a code block's language names (any case, or an alias), or null when there is none. */
export function grammarOf(lang: string): string | null {
  const name = lang.toLowerCase();
  if (Object.hasOwn(grammars, name)) return name;
  return Object.hasOwn(aliases, name) ? aliases[name]! : null;
}

const lowlight = createLowlight();
const loading = new Map<string, Promise<void>>();

/** Loads a grammar (see grammarOf) and registers it, once; a grammar that fails to load leaves its code plain. */
export function loadGrammar(name: string): Promise<void> {
  let p = loading.get(name);
  const load = grammars[name];
  if (!p && load) {
    p = load().then(
      (m) => lowlight.register(name, m.default),
      (err: unknown) => console.warn(`Errand: highlighting for ${name} is unavailable`, err),
    );
    loading.set(name, p);
  }
  return p ?? Promise.resolve();
}

interface Node {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: Node[];
}

function textOf(node: Node): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/** The registered grammar a <code> element's language- class names, if any. */
function registered(code: Node): string | null {
  const classes = Array.isArray(code.properties?.className) ? code.properties.className.map(String) : [];
  const lang = classes.find((c) => c.startsWith('language-'));
  const name = lang ? grammarOf(lang.slice('language-'.length)) : null;
  return name && lowlight.registered(name) ? name : null;
}

/** Highlights, in place, every <pre><code> whose language is registered; the others stay plain. */
function highlightTree(node: Node): void {
  for (const child of node.children ?? []) {
    if (node.tagName === 'pre' && child.type === 'element' && child.tagName === 'code') {
      const name = registered(child);
      if (name) {
        const result = lowlight.highlight(name, textOf(child), { prefix: 'hljs-' });
        const classes = child.properties!.className as unknown[];
        child.properties!.className = ['hljs', ...classes];
        if (result.children.length > 0) child.children = result.children as Node[];
      }
      continue;
    }
    highlightTree(child);
  }
}

/** A rehype plugin: highlights the code blocks whose grammar is loaded. */
export function rehypeHighlightLoaded() {
  return (tree: Node) => highlightTree(tree);
}

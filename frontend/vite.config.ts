import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { CONVERSATION_PAGE, MESSAGE_PAGE } from './src/api/pageSizes';
import { platformOf } from './src/lib/platform';

// "hljs-grammar/go" is highlight.js's Go grammar, found from lowlight (whose
// dependency it is, wherever npm put it): the grammars load one by one, as
// code blocks name them (src/components/highlighter.ts).
const hljsGrammars: Plugin = {
  name: 'hljs-grammars',
  async resolveId(source, importer) {
    const grammar = /^hljs-grammar\/(.+)$/.exec(source)?.[1];
    if (!grammar) return null;
    const lowlight = await this.resolve('lowlight', importer, { skipSelf: true });
    return lowlight && this.resolve(`highlight.js/lib/languages/${grammar}`, lowlight.id, { skipSelf: true });
  },
};

// The page asks Go for its first screen while it is parsed (Wails' runtime,
// which binds window.go, runs first in <head>), so the answer comes while
// the app's main script loads instead of after it; src/api firstScreen()
// takes it (window.errandFirstScreen). Nothing reaches the window before the
// first screen but what that answer holds: Go sends events only for what
// the window asks, and starts its own work once the screen is painted.
// When Go put a copy of the last first screen into the page (index.html), it
// put the first screen that copy shows there too, before this script: that
// one wins.
//
// <html> is marked with the platform (src/lib/platform.ts) first of all, so
// that whatever the window paints — the last first screen's copy before the
// app's script runs, then the app — has the platform's fonts.
const askFirstScreen: Plugin = {
  name: 'ask-first-screen',
  transformIndexHtml: () => [
    {
      tag: 'script',
      injectTo: 'head-prepend',
      children: `document.documentElement.dataset.platform = (${platformOf.toString()})(navigator.userAgent);`,
    },
    {
      tag: 'script',
      injectTo: 'head-prepend',
      children:
        `window.errandFirstScreen ??= window.go?.app?.Health?.FirstScreen?.(${CONVERSATION_PAGE}, ${MESSAGE_PAGE});` +
        'window.errandFirstScreen?.catch(() => {});',
    },
  ],
};

// The stylesheet goes into index.html. As a <link> it was one more request
// after the HTML, and the page's scripts waited for it: in the real window
// the first paint came 35–45 ms later. The build fails if a chunk still
// names the file (it would try to load it).
const inlined = new Set<string>();
const inlineStylesheet: Plugin = {
  name: 'inline-stylesheet',
  apply: 'build',
  buildStart: () => inlined.clear(),
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      const bundle = ctx.bundle;
      if (!bundle) return html;
      return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
        const asset = bundle[file];
        const css = asset?.type === 'asset' ? String(asset.source) : '';
        if (!css || css.includes('</style')) return tag;
        delete bundle[file];
        inlined.add(file);
        return `<style>${css}</style>`;
      });
    },
  },
  writeBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      for (const file of inlined) {
        if (chunk.code.includes(file)) this.error(`${chunk.fileName} loads ${file}, which is inlined into index.html`);
      }
    }
  },
};

// The scripts are ASCII (esbuild's charset, below; other characters are
// escaped): WebKit keeps a script that is all Latin-1 as 8-bit text, which
// JavaScriptCore parses faster and holds in half the memory (it keeps a
// script's text for the functions it compiles later). One '…' in a UI
// string made the whole 430 kB main chunk 16-bit. The build fails if a
// chunk still holds another character (a build without minifying keeps
// the comments, which esbuild does not escape: it is not checked).
const asciiChunks: Plugin = {
  name: 'ascii-chunks',
  apply: 'build',
  writeBundle(_options, bundle) {
    if (!this.environment.config.build.minify) return;
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      const at = chunk.code.search(/[^\x00-\x7f]/);
      if (at >= 0) this.error(`${chunk.fileName} holds a character outside ASCII at ${at}: ${chunk.code.slice(at - 20, at + 5)}`);
    }
  },
};

// micromark's parser combines its constructs with the extensions for every
// parse; it is given src/components/micromarkConstructs.ts, which does it
// once for each list of extensions. The build fails if micromark's parser
// no longer imports the function there (the redirect would do nothing).
const micromarkParser = /[\\/]micromark[\\/](dev[\\/])?lib[\\/]parse\.js$/;
let micromarkRedirected = false;
const micromarkConstructsOnce: Plugin = {
  name: 'micromark-constructs-once',
  enforce: 'pre',
  buildStart: () => void (micromarkRedirected = false),
  resolveId(source, importer) {
    if (source !== 'micromark-util-combine-extensions' || !importer || !micromarkParser.test(importer)) return null;
    micromarkRedirected = true;
    return fileURLToPath(new URL('./src/components/micromarkConstructs.ts', import.meta.url));
  },
  buildEnd(err) {
    if (!err && this.environment.config.command === 'build' && !micromarkRedirected)
      this.error("micromark's parser did not import micromark-util-combine-extensions: micromarkConstructsOnce redirects nothing");
  },
};

// No @vitejs/plugin-react: esbuild's automatic JSX runtime is all we need.
export default defineConfig({
  esbuild: { jsx: 'automatic', charset: 'ascii' },
  plugins: [hljsGrammars, askFirstScreen, inlineStylesheet, asciiChunks, micromarkConstructsOnce],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One stylesheet for the whole window, inlined (see inlineStylesheet): with
    // one per lazy view, a chunk that imports from the main one also lists
    // the main stylesheet to load, which is no longer a file.
    cssCodeSplit: false,
  },
  server: {
    // Wails' dev mode proxies to this port (see wails.json frontend:dev:serverUrl).
    strictPort: false,
  },
  test: {
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // micromark goes through Vite, as in the bundle: the Markdown tests
    // parse with its constructs combined once (micromarkConstructsOnce).
    server: { deps: { inline: ['micromark'] } },
    // Component tests (.tsx) run in happy-dom, which starts in a fraction of
    // jsdom's time; the logic tests (.ts: reducers, stores, parsers) need no
    // DOM and run in plain Node.
    projects: [
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['src/**/*.test.tsx'],
          benchmark: { include: ['src/**/*.bench.tsx'] },
          environment: 'happy-dom',
          setupFiles: ['./src/test/setupDom.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'logic', include: ['src/**/*.test.ts'], benchmark: { include: ['src/**/*.bench.ts'] }, environment: 'node' },
      },
    ],
    // One worker per core: vitest's default for a run is one fewer than the
    // cores, which is a single worker (half the machine) on 2 cores.
    maxWorkers: '100%',
    // Each file runs in a fresh VM context of a worker thread that stays: the
    // same isolation (a fresh DOM and module graph per file) without starting
    // a thread and vitest in it per file, for a third less CPU than 'threads'
    // (which itself took a seventh less than child processes).
    pool: 'vmThreads',
    // A test's outcome never depends on how busy the machine is: the limit
    // is one only a hung test reaches (vitest's 5 s default was reached by
    // long typing tests on a loaded 2-core machine).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

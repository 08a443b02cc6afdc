// highlight.js's grammars, one module each (aliased in vite.config.ts).
declare module 'hljs-grammar/*' {
  import type { LanguageFn } from 'lowlight';
  const grammar: LanguageFn;
  export default grammar;
}

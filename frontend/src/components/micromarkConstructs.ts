// micromark combines its own constructs with the extensions it is given
// (GFM's, built once in MarkdownBlock.tsx) anew for every parse: a table
// of every construct by the character it starts with, built and thrown
// away at each frame of a streaming reply. That was about a quarter of
// what the page allocated while a long Markdown reply streamed, and 77 µs
// of a 551 µs parse of a 150-byte list in Node (docs/BENCHMARKS.md). The
// bundle gives micromark's parser this function instead (vite.config.ts,
// micromarkConstructsOnce), which combines each list of extensions once:
// micromark only reads the table.

import { combineExtensions as combine } from 'micromark-util-combine-extensions';

type Extensions = Parameters<typeof combine>[0];
type Combined = ReturnType<typeof combine>;

/** The lists combined so far, by their extensions: a few (with GFM or without), so a short list is enough. */
const combined: { extensions: Extensions; result: Combined }[] = [];

const sameExtensions = (a: Extensions, b: Extensions) => a.length === b.length && a.every((e, i) => e === b[i]);

/** micromark's combineExtensions, once for each list of the same extensions. */
export function combineExtensions(extensions: Extensions): Combined {
  const known = combined.find((c) => sameExtensions(c.extensions, extensions));
  if (known) return known.result;
  const result = combine(extensions);
  combined.unshift({ extensions: [...extensions], result });
  combined.length = Math.min(combined.length, 8);
  return result;
}

// Which Markdown needs GitHub's extensions (remark-gfm) to parse as written.
//
// Each of GFM's constructs needs one of a few characters: a table its
// pipes, strikethrough its tildes, a task list item and a footnote their
// brackets, an autolinked address "www.", "http://", "https://" or an @.
// A block with none of them parses to the same tree without GFM, and two
// to three times faster: GFM's autolink literals try every word of the
// text (a 400-byte paragraph took 0.6 ms with them and 0.2 ms without).
//
// Those addresses are also looked for in the parsed text, after a
// character reference is decoded (a&#64;b.co is linked too), by four
// expressions with lookbehinds, which JavaScriptCore runs in its
// interpreter (4-7 µs a table row, its JIT on or off), on every text node:
// each cell of a streaming table, at every frame. A block with GFM's
// syntax and no address (most tables) is parsed without that search.

/** A bare address GFM links: www., http(s)://, an e-mail (mailto:, xmpp:), or a character reference that may make one. */
const BARE_ADDRESS = /@|www\.|https?:\/\/|&[#a-z\d]+;/i;
/** GFM's other constructs: a table, strikethrough, a task, a footnote. */
const OTHER_GFM = /[|~[]/;

/**
 * What of GFM a block needs: none (plain CommonMark gives the same tree),
 * its syntax without the search for bare addresses in the parsed text, or all.
 */
export function gfmNeeded(text: string): 'none' | 'syntax' | 'all' {
  if (BARE_ADDRESS.test(text)) return 'all';
  return OTHER_GFM.test(text) ? 'syntax' : 'none';
}

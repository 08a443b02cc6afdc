// A text that grows by appending (a streaming reply). A string built by
// appending is joined (copied whole) when it is first read, so a reader
// that reads it on every frame copies a 5 MB reply every frame. Each copy
// of the text instead records the piece it appended to the one before: a
// reader that saw an earlier copy reads only what was appended since.

export interface Grown {
  /** The whole text's length (UTF-16 units). */
  length: number;
  /** What this copy appended to the one before. */
  piece: string;
  /** The copy it appended to, if that one was recorded too. */
  before: Grown | undefined;
}

/** The record of a text of this length that appended piece to before. */
export function grow(before: Grown | undefined, length: number, piece: string): Grown {
  return { length, piece, before };
}

/**
 * What was appended between the copy before and the copy now (costs the
 * pieces appended since), or undefined when now does not grow from before.
 */
export function appendedSince(now: Grown, before: Grown | undefined): string | undefined {
  if (!before) return undefined;
  const pieces: string[] = [];
  let n: Grown | undefined = now;
  for (; n && n.length > before.length; n = n.before) pieces.push(n.piece);
  return n === before ? pieces.reverse().join('') : undefined;
}

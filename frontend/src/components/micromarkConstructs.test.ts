import { parse } from 'micromark';
import { gfm } from 'micromark-extension-gfm';
import { combineExtensions as combine } from 'micromark-util-combine-extensions';
import { describe, expect, it } from 'vitest';
import { combineExtensions } from './micromarkConstructs';

describe('combineExtensions, once for each list of extensions', () => {
  const table = gfm();
  const other = gfm();

  it('gives what micromark would build, and the same table again for the same extensions', () => {
    const first = combineExtensions([table]);
    expect(first).toEqual(combine([table]));
    // micromark hands it a new array at each parse, with the same extensions in it
    expect(combineExtensions([table])).toBe(first);
  });

  it('builds another table for other extensions, or the same ones in another order', () => {
    const both = combineExtensions([table, other]);
    expect(combineExtensions([other])).not.toBe(combineExtensions([table]));
    expect(combineExtensions([other, table])).not.toBe(both);
    expect(combineExtensions([table, other])).toBe(both);
  });

  it("is what micromark's parser combines with: two parses with the same extensions share one table", () => {
    const first = parse({ extensions: [table] });
    expect(parse({ extensions: [table] }).constructs).toBe(first.constructs);
    expect(parse({ extensions: [other] }).constructs).not.toBe(first.constructs);
  });
});

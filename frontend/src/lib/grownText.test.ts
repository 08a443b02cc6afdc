import { describe, expect, it } from 'vitest';
import { appendedSince, grow } from './grownText';

describe('grownText', () => {
  it('finds what was appended since an earlier copy', () => {
    const a = grow(undefined, 5, 'Hello');
    const b = grow(a, 7, ', ');
    const c = grow(b, 13, 'world!');
    expect(appendedSince(c, a)).toBe(', world!');
    expect(appendedSince(c, b)).toBe('world!');
    expect(appendedSince(c, c)).toBe('');
  });

  it('says nothing when the copy does not grow from the one given', () => {
    const a = grow(undefined, 5, 'Hello');
    const other = grow(undefined, 5, 'Howdy');
    const c = grow(a, 8, ' you');
    expect(appendedSince(c, other)).toBeUndefined();
    expect(appendedSince(a, c)).toBeUndefined();
    expect(appendedSince(c, undefined)).toBeUndefined();
  });
});

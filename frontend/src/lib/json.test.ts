import { describe, expect, it } from 'vitest';
import { parseObject, prettyJson } from './json';

describe('json', () => {
  it('parseObject and prettyJson never throw', () => {
    expect(parseObject('[1,2]')).toBeNull();
    expect(parseObject('{"a":1}')).toEqual({ a: 1 });
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('oops{')).toBe('oops{');
    expect(prettyJson('{bad')).toBe('{bad');
  });
});

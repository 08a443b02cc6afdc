import { describe, expect, it } from 'vitest';
import { grammarOf } from './highlighter';
import { fenceLanguages } from './Markdown';

describe('highlighting languages', () => {
  it('finds the languages the fences name, each loaded by its grammar', () => {
    expect(fenceLanguages('Look:\n```go\nfunc main() {}\n```\n\n~~~ py title\nx = 1\n~~~\n```\nplain\n```')).toEqual(['go', 'py']);
    expect(grammarOf('go')).toBe('go');
    expect(grammarOf('PY')).toBe('python');
    expect(grammarOf('tsx')).toBe('typescript');
  });

  it('knows no grammar for other names, which stay plain', () => {
    expect(grammarOf('brainfuck')).toBeNull();
    expect(grammarOf('constructor')).toBeNull();
    expect(grammarOf('')).toBeNull();
  });
});

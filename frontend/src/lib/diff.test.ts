import { describe, expect, it } from 'vitest';
import { diffLines } from './diff';

describe('diff', () => {
  it('classifies diff lines', () => {
    expect(diffLines('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n\\ No newline at end of file\n').map((l) => l.kind)).toEqual([
      'file',
      'file',
      'hunk',
      'del',
      'add',
      'context',
      'note',
    ]);
    expect(diffLines('(no change)')).toEqual([{ kind: 'note', text: '(no change)' }]);
  });
});

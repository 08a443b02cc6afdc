export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'note';

/** Classifies the lines of a unified diff. */
export function diffLines(diff: string): { kind: DiffLineKind; text: string }[] {
  const lines = diff.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((text) => {
    let kind: DiffLineKind = 'context';
    if (text.startsWith('+++ ') || text.startsWith('--- ') || text === '+++' || text === '---') kind = 'file';
    else if (text.startsWith('@@')) kind = 'hunk';
    else if (text.startsWith('+')) kind = 'add';
    else if (text.startsWith('-')) kind = 'del';
    else if (text.startsWith('\\') || (text.startsWith('(') && text.endsWith(')'))) kind = 'note';
    return { kind, text };
  });
}

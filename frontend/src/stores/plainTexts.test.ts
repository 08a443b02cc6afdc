// Whether a first screen's open conversation shows the same without the
// Markdown parser: then its first render does not wait for the parser.
import { describe, expect, it } from 'vitest';
import { plainTexts } from './actions';

/** A view as Go sends it: ids, times, names, a tool call's arguments as JSON. */
function view(reply: string, update = 'Checked the three files.') {
  return {
    conversation: { id: '0c9e6a40-2f5b-4d1e-9a1c-3b7f1d2e4a5b', title: 'Budget for the trip', updatedAt: '2026-11-28T17:00:00Z' },
    messages: [
      { id: 'm1', role: 'user', content: 'Plan the trip\nwith a budget.', seq: 1 },
      {
        id: 'm2',
        role: 'assistant',
        content: reply,
        toolCalls: [{ id: 'call_a1b2c3', name: 'send_update', arguments: JSON.stringify({ message: update }) }],
      },
      { id: 'm3', role: 'tool', content: 'The update was shown to the user.', toolCallId: 'call_a1b2c3', toolName: 'send_update' },
    ],
    tasks: [{ id: 't1', mode: 'agent', status: 'completed', summary: 'The plan is done.', steps: 2 }],
  };
}

describe('plainTexts', () => {
  it('is true for a conversation of plain prose, whatever its ids, times and names', () => {
    expect(plainTexts(view('Here is the plan.\n\nIt costs less than the last one.'))).toBe(true);
  });

  it('is false as soon as one text needs the parser: in a reply, a tool call or a one-word answer', () => {
    expect(plainTexts(view('Here is **the plan**.'))).toBe(false);
    expect(plainTexts(view('Steps:\n- one\n- two'))).toBe(false);
    expect(plainTexts(view('Done.', 'Read `main.go`'))).toBe(false);
    expect(plainTexts(view('`ls`'))).toBe(false);
    expect(plainTexts(view('https://example.com'))).toBe(false);
    expect(plainTexts(view('{ not json'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { message } from '../../test/fixtures';
import { buildTranscript } from './transcript';

const C = 'c';

describe('buildTranscript', () => {
  it('maps roles and agent tools to display items', () => {
    const items = buildTranscript([
      message('u', C, { role: 'user', content: 'Plan a trip' }),
      message('a1', C, {
        content: 'Let me look.',
        step: 1,
        toolCalls: [
          { id: 'c1', name: 'send_update', arguments: '{"message":"Searching flights"}' },
          { id: 'c2', name: 'web_search', arguments: '{"query":"flights"}' },
        ],
      }),
      message('r1', C, { role: 'tool', toolName: 'send_update', toolCallId: 'c1', content: 'ok' }),
      message('r2', C, { role: 'tool', toolName: 'web_search', toolCallId: 'c2', content: 'results', isError: true }),
      message('a2', C, {
        step: 2,
        toolCalls: [{ id: 'c3', name: 'ask_user', arguments: '{"question":"Which city?","choices":["Paris","Rome"]}' }],
      }),
      message('r3', C, { role: 'tool', toolName: 'ask_user', toolCallId: 'c3', content: 'Rome' }),
      message('a3', C, {
        step: 3,
        toolCalls: [{ id: 'c4', name: 'task_complete', arguments: '{"summary":"Booked."}' }],
      }),
      message('r4', C, { role: 'tool', toolName: 'task_complete', toolCallId: 'c4', content: 'done' }),
      message('s', C, { role: 'system', content: 'Stopped by user' }),
    ]);
    expect(items.map((i) => i.kind)).toEqual([
      'user',
      'agent',
      'update',
      'toolCall',
      'question',
      'answer',
      'complete',
      'notice',
    ]);
    expect(items[1]).toMatchObject({ text: 'Let me look.', step: 1 });
    expect(items[2]).toMatchObject({ text: 'Searching flights' });
    // The result shows in its call's row: one row per call.
    expect(items[3]).toMatchObject({ name: 'web_search', callId: 'c2' });
    expect(items[4]).toMatchObject({ question: 'Which city?', choices: ['Paris', 'Rome'] });
    expect(items[5]).toMatchObject({ text: 'Rome' });
    expect(items[6]).toMatchObject({ summary: 'Booked.' });
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });

  it('survives invalid tool arguments by showing the raw text', () => {
    const items = buildTranscript([
      message('a', C, {
        toolCalls: [
          { id: '1', name: 'send_update', arguments: '{"message": "unterminated' },
          { id: '2', name: 'ask_user', arguments: 'not json' },
          { id: '3', name: 'task_complete', arguments: '' },
          { id: '4', name: 'read_file', arguments: '{{{' },
        ],
      }),
    ]);
    expect(items[0]).toMatchObject({ kind: 'update', text: '{"message": "unterminated' });
    expect(items[1]).toMatchObject({ kind: 'question', question: 'not json', choices: [] });
    expect(items[2]).toMatchObject({ kind: 'complete', summary: '' });
    expect(items[3]).toMatchObject({ kind: 'toolCall', args: '{{{' });
  });

  it('shows an empty streaming message as a growing agent bubble', () => {
    const items = buildTranscript([message('a', C, { content: '', streaming: true })]);
    expect(items).toEqual([{ kind: 'agent', key: 'a', text: '', step: 0, streaming: true, taskId: '' }]);
  });

  it('folds a reply cut off when Errand closed, so the resumed one is not read twice', () => {
    const items = buildTranscript([message('a', C, { content: 'Half of it', step: 2, outcome: 'cut_off' })]);
    expect(items).toEqual([{ kind: 'agent', key: 'a', text: 'Half of it', step: 0, streaming: false, taskId: '', cutOff: true }]);
  });

  it('puts a reply’s thinking first, with its step; while only thinking streams, it is the live row', () => {
    const thinking = message('a', C, { content: '', streaming: true, reasoning: 'Hmm', step: 3, taskId: 't' });
    expect(buildTranscript([thinking])).toEqual([
      { kind: 'thinking', key: 'a:thinking', text: 'Hmm', ms: 0, live: true, step: 3, taskId: 't' },
    ]);
    const answered = { ...thinking, content: 'Yes', streaming: false, reasoningMs: 4000 };
    expect(buildTranscript([answered]).map((i) => [i.kind, 'live' in i && i.live, 'step' in i && i.step])).toEqual([
      ['thinking', false, 3],
      ['agent', false, 0],
    ]);
    // Hidden: the reply as without thinking (the growing bubble while it thinks).
    expect(buildTranscript([thinking], false)).toEqual([{ kind: 'agent', key: 'a', text: '', step: 3, streaming: true, taskId: 't' }]);
  });

  it('skips empty non-streaming assistant content', () => {
    expect(buildTranscript([message('a', C, { content: '' })])).toEqual([]);
  });
});

describe('buildRows', () => {
  it('lists every item with its kind and message, and keeps the shape while text streams', async () => {
    const { buildRows, sameRows, itemOf } = await import('./transcript');
    const a = message('a', C, { content: 'Hi', step: 1, toolCalls: [{ id: 'x', name: 'send_update', arguments: '{"message":"m"}' }] });
    const rows = buildRows([message('u', C, { role: 'user', content: 'go' }), a]);
    expect(rows.keys).toEqual(['u', 'a', 'a:0']);
    expect(rows.kinds).toEqual(['user', 'agent', 'update']);
    expect(rows.messageIds).toEqual(['u', 'a', 'a']);
    // More text, same rows.
    const grown = buildRows([message('u', C, { role: 'user', content: 'go' }), { ...a, content: 'Hi there' }]);
    expect(sameRows(rows, grown)).toBe(true);
    // A new item changes them.
    expect(sameRows(rows, buildRows([a]))).toBe(false);
    expect(itemOf(a, 'a:0')).toMatchObject({ kind: 'update', text: 'm' });
    expect(itemOf(undefined, 'a')).toBeUndefined();
  });

  it('puts the step badge on the first visible item of a message only', () => {
    const items = buildTranscript([
      message('a', C, {
        content: 'Text',
        step: 3,
        toolCalls: [
          { id: '1', name: 'web_search', arguments: '{}' },
          { id: '2', name: 'send_update', arguments: '{"message":"u"}' },
          { id: '3', name: 'task_complete', arguments: '{"summary":"s"}' },
        ],
      }),
      message('b', C, { step: 4, toolCalls: [{ id: '4', name: 'ask_user', arguments: '{"question":"q"}' }] }),
    ]);
    expect(items.map((i) => ('step' in i ? i.step : null))).toEqual([3, 3, 0, 0, 4]);
  });
});

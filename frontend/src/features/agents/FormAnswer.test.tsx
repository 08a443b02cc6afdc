import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { message, resetStores } from '../../test/fixtures';

import { useMessagesStore } from '../../stores/messages';
import { buildTranscript } from '../chat/transcript';
import { TranscriptItemView } from '../chat/TranscriptItemView';
import { answerFields } from './FormAnswer';

const C = 'c1';
const FORM = JSON.stringify({
  question: 'Your details',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'age', label: 'Age', type: 'number' },
    { name: 'newsletter', label: 'Send me the newsletter', type: 'boolean' },
  ],
});

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

function answerRow(answer: string, args = FORM) {
  const ask = message('a1', C, { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'ask_user', arguments: args }] });
  const reply = message('r1', C, { role: 'tool', toolName: 'ask_user', toolCallId: 'call-1', parentId: 'a1', content: answer });
  act(() => {
    useMessagesStore.getState().beginLoad(C);
    useMessagesStore.getState().finishLoad(C, [ask, reply]);
  });
  const item = buildTranscript([reply]).find((i) => i.kind === 'answer')!;
  render(<TranscriptItemView conversationId={C} item={item} />);
}

describe('a form’s answer', () => {
  it('shows as the form’s labelled fields, in its order, not as JSON', () => {
    answerRow('{"age":36,"name":"Ada","newsletter":true}');
    const terms = screen.getAllByRole('term').map((t) => t.textContent);
    const values = screen.getAllByRole('definition').map((d) => d.textContent);
    expect(terms).toEqual(['Name', 'Age', 'Send me the newsletter']);
    expect(values).toEqual(['Ada', '36', 'Yes']);
    expect(screen.queryByText(/\{"age"/)).not.toBeInTheDocument();
  });

  it('uses the field names when the question is not held, and shows any other answer as typed', () => {
    expect(answerFields('{"city":"Lisbon"}', '')).toEqual([{ name: 'city', label: 'city', value: 'Lisbon' }]);
    expect(answerFields('Blue', FORM)).toBeNull();
    expect(answerFields('["Red","Blue"]', '')).toBeNull();
    answerRow('Blue', JSON.stringify({ question: 'Which colour?', choices: ['Red', 'Blue'] }));
    expect(screen.getByText('Blue')).toBeInTheDocument();
    expect(screen.queryByRole('term')).not.toBeInTheDocument();
  });
});

import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../api/types';
import { deliverDelta, delta, message, resetStores } from '../../test/fixtures';
import { mockClipboard } from '../../test/clipboard';

import { useAppStore } from '../../stores/app';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage } from '../../stores/sync';
import { MessageList } from './MessageList';
import { thoughtLabel } from './ThinkingBlock';

const C = 'c';

function seed(...msgs: Message[]) {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, msgs);
}

function thinkingDelta(offset: number, text: string, rev: number) {
  return { ...delta(C, 'a', offset, text, rev), reasoning: true };
}

beforeEach(() => {
  resetStores();
});

describe('the Thinking block', () => {
  it('streams the thinking while the model thinks, then folds to how long it took once the answer starts', async () => {
    seed(message('u', C, { role: 'user', content: 'Plan my week', seq: 1 }), message('a', C, { content: '', streaming: true, seq: 2 }));
    render(<MessageList conversationId={C} />);
    act(() => {
      deliverDelta(thinkingDelta(0, 'The person wants a plan. ', 2));
      deliverDelta(thinkingDelta(25, 'Monday first.', 3));
    });

    const live = screen.getByRole('button', { name: 'Thinking' });
    expect(live).toHaveAttribute('aria-expanded', 'true');
    const region = await screen.findByRole('region', { name: 'Thinking' });
    expect(region).toHaveTextContent('The person wants a plan. Monday first.');
    // No "Writing" dots beside it: the thinking is what is live.
    expect(screen.queryByRole('img', { name: 'Writing' })).not.toBeInTheDocument();

    // It can be closed while it streams.
    await userEvent.click(live);
    expect(screen.getByRole('button', { name: 'Thinking' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Thinking' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Thinking' }));

    act(() => deliverDelta(delta(C, 'a', 0, 'Here is your week.', 4)));
    expect(await screen.findByText('Here is your week.')).toBeInTheDocument();
    act(() => {
      handleTaskMessage({
        conversationId: C,
        taskId: 't',
        message: message('a', C, {
          content: 'Here is your week.',
          reasoning: 'The person wants a plan. Monday first.',
          reasoningMs: 12_300,
          seq: 2,
          rev: 5,
        }),
      });
    });
    const folded = screen.getByRole('button', { name: 'Thought for 12 s' });
    expect(folded).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('region', { name: 'Thinking' })).not.toBeInTheDocument();
  });

  it('folds as soon as the answer starts, before the message is stored', async () => {
    seed(message('a', C, { content: '', streaming: true, reasoning: 'Hmm.', reasoningMs: 0 }));
    render(<MessageList conversationId={C} />);
    expect(screen.getByRole('button', { name: 'Thinking' })).toHaveAttribute('aria-expanded', 'true');
    act(() => deliverDelta(delta(C, 'a', 0, 'Done.', 2)));
    expect(screen.getByRole('button', { name: /^Thought for \d+ s$/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens a stored message’s thinking on a click, and leaves it out of Copy message', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    seed(
      message('u', C, { role: 'user', content: 'Is 91 prime?', seq: 1 }),
      message('a', C, { content: 'No: 91 is 7 × 13.', reasoning: 'Try 7: 7 × 13 = 91.', reasoningMs: 2_400, seq: 2 }),
    );
    render(<MessageList conversationId={C} />);
    const toggle = screen.getByRole('button', { name: 'Thought for 2 s' });
    expect(screen.queryByText('Try 7: 7 × 13 = 91.')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(screen.getByRole('region', { name: 'Thinking' })).getByText('Try 7: 7 × 13 = 91.')).toBeInTheDocument();

    const copies = screen.getAllByRole('button', { name: 'Copy message' });
    await user.click(copies[copies.length - 1]!);
    expect(writeText).toHaveBeenCalledWith('No: 91 is 7 × 13.');

    await user.click(toggle);
    expect(screen.queryByRole('region', { name: 'Thinking' })).not.toBeInTheDocument();
  });

  it('shows the thinking of a reply that only called tools', () => {
    seed(
      message('a', C, {
        content: '',
        reasoning: 'I should list the files first.',
        reasoningMs: 3_000,
        toolCalls: [{ id: 'call1', name: 'list_files', arguments: '{"path":"."}' }],
      }),
    );
    render(<MessageList conversationId={C} />);
    expect(screen.getByRole('button', { name: 'Thought for 3 s' })).toBeInTheDocument();
  });

  it('is hidden entirely when Show thinking is off, live or stored', () => {
    useAppStore.getState().setShowThinking(false);
    seed(
      message('a', C, { content: 'Yes.', reasoning: 'Checked it twice.', reasoningMs: 5_000, seq: 1 }),
      message('b', C, { content: '', streaming: true, reasoning: 'Now the next one', seq: 2 }),
    );
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Yes.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Thought for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Thinking' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Checked it twice|Now the next one/)).not.toBeInTheDocument();
    // The reply being thought about still shows that it is coming.
    expect(screen.getByRole('img', { name: 'Writing' })).toBeInTheDocument();

    act(() => useAppStore.getState().setShowThinking(true));
    expect(screen.getByRole('button', { name: 'Thought for 5 s' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Thinking' })).toBeInTheDocument();
  });
});

describe('thoughtLabel', () => {
  it('says whole seconds, and at least 1', () => {
    expect(thoughtLabel(12_300)).toBe('Thought for 12 s');
    expect(thoughtLabel(12_500)).toBe('Thought for 13 s');
    expect(thoughtLabel(300)).toBe('Thought for 1 s');
    expect(thoughtLabel(0)).toBe('Thought for 1 s');
  });
});

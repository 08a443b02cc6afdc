import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { message, resetStores } from '../../test/fixtures';

vi.mock('../../api', () => ({ loadConversation: vi.fn() }));
vi.mock('../../events', () => ({ subscribeAll: vi.fn(() => () => {}) }));

import { useMessagesStore } from '../../stores/messages';
import { handleMessageDelta, handleTaskMessage } from '../../stores/sync';
import { MessageList } from './MessageList';

const C = 'c';

function seed(...msgs: ReturnType<typeof message>[]) {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, msgs);
}

beforeEach(() => {
  resetStores();
});

describe('MessageList', () => {
  it('renders model output as plain text, never as HTML', () => {
    seed(message('a', C, { content: '<img src=x onerror="alert(1)"><b>bold</b>\nsecond line' }));
    const { container } = render(<MessageList conversationId={C} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText(/<b>bold<\/b>/)).toBeInTheDocument();
    expect(screen.getByText(/second line/).textContent).toContain('\nsecond line');
  });

  it('shows step badges, cards and expandable tool rows', async () => {
    seed(
      message('a', C, {
        content: 'Working on it',
        step: 2,
        toolCalls: [
          { id: '1', name: 'read_file', arguments: '{"path":"/tmp/x"}' },
          { id: '2', name: 'task_complete', arguments: '{"summary":"All done"}' },
        ],
      }),
      message('r', C, { role: 'tool', toolName: 'read_file', content: 'file body', isError: false }),
    );
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Step 2')).toBeInTheDocument();
    expect(screen.getByText('Task complete')).toBeInTheDocument();
    expect(screen.getByText('All done')).toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: /Used tool read_file/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/"path": "\/tmp\/x"/)).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/"path": "\/tmp\/x"/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Result of read_file/ }));
    expect(screen.getByText('file body')).toBeInTheDocument();
  });

  it('shows streaming text as it grows', () => {
    seed();
    render(<MessageList conversationId={C} />);
    act(() => {
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('m', C, { streaming: true }) });
      handleMessageDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 0, text: 'Hel', rev: 2 });
    });
    expect(screen.getByText('Hel')).toBeInTheDocument();
    act(() => handleMessageDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 3, text: 'lo', rev: 3 }));
    expect(screen.getByText('Hello')).toBeInTheDocument();
  });
});

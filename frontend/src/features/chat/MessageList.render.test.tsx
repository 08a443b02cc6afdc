// Streaming must re-render only the row that streams, not the whole list.
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deliverDelta, message, resetStores, task } from '../../test/fixtures';

// Count how often each reply's text is rendered.
const renders: string[] = [];
vi.mock('../../components/Markdown', () => ({
  Markdown: ({ text }: { text: string }) => {
    renders.push(text);
    return <div className="text md">{text}</div>;
  },
  CopyButton: () => null,
}));

// Count the list's own renders (each calls its virtualizer once).
let listRenders = 0;
vi.mock('@tanstack/react-virtual', async (importOriginal) => {
  const real = await importOriginal<typeof import('@tanstack/react-virtual')>();
  return {
    ...real,
    useVirtualizer: (...args: Parameters<typeof real.useVirtualizer>) => {
      listRenders++;
      return real.useVirtualizer(...args);
    },
  };
});

import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { MessageList } from './MessageList';

const C = 'c';

beforeEach(() => {
  resetStores();
  renders.length = 0;
});

describe('MessageList rendering', () => {
  it("a task's status and steps render its status row, not the list", () => {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(C, [message('u', C, { role: 'user', content: 'Plan the trip', seq: 1 })]);
    act(() => handleTaskUpdate(task('t', C, { status: 'running', stepCount: 1 })));
    render(<MessageList conversationId={C} />);
    listRenders = 0;
    act(() => handleTaskUpdate(task('t', C, { status: 'tool_executing', stepCount: 2, currentTool: 'web_search' })));
    act(() => handleTaskUpdate(task('t', C, { status: 'cancelled', stepCount: 2 })));
    expect(screen.getByText(/Stopped/)).toBeInTheDocument();
    expect(listRenders).toBe(0);
  });

  it('a delta re-renders the streaming row only', () => {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(
      C,
      Array.from({ length: 50 }, (_, i) => message(`old${i}`, C, { content: `Old reply ${i}`, seq: i + 1 })),
    );
    render(<MessageList conversationId={C} />);
    act(() =>
      handleTaskMessage({
        conversationId: C,
        taskId: 't',
        message: message('live', C, { content: 'A', streaming: true, seq: 100 }),
      }),
    );
    expect(screen.getByText('A')).toBeInTheDocument();
    renders.length = 0;

    let offset = 1;
    let rev = 2;
    for (const piece of ['B', 'C', 'D', 'E', 'F']) {
      act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'live', offset, text: piece, rev }));
      offset += 1;
      rev += 1;
    }
    expect(screen.getByText('ABCDEF')).toBeInTheDocument();
    expect(renders.every((t) => t.startsWith('A')), `rendered: ${JSON.stringify(renders)}`).toBe(true);
    expect(renders.length).toBeLessThanOrEqual(5 * 2); // once per delta (twice at most)
  });
});

describe('MessageList opening', () => {
  function seedReplies(n: number) {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(
      C,
      Array.from({ length: n }, (_, i) => message(`r${i}`, C, { content: `Reply ${i}`, seq: i + 1 })),
    );
  }

  it('opens at the latest reply; the replies above the view come once it is painted', async () => {
    seedReplies(300);
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Reply 299')).toBeInTheDocument();
    const shown = () => screen.getAllByText(/^Reply \d+$/).length;
    const first = shown();
    await waitFor(() => expect(shown()).toBeGreaterThan(first));
    expect(screen.getByText('Reply 299')).toBeInTheDocument();
  });
});

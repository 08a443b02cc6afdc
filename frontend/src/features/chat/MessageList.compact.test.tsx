// The window's messages are copied anew when it is idle (the messages
// store's compact, before the web process gives back its memory). The
// person must see no change: the same transcript, in the same elements (a
// selection in it stays), and no reply's Markdown parsed again.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Every text the Markdown parser is given, in order.
vi.mock('react-markdown', async (importOriginal) => (await import('../../test/markdownParses')).countingReactMarkdown(importOriginal));
import { parsed } from '../../test/markdownParses';

import { message, resetStores } from '../../test/fixtures';
import { useMessagesStore } from '../../stores/messages';
import { MessageList } from './MessageList';

const C = 'c';

beforeEach(() => {
  resetStores();
  parsed.length = 0;
});

describe('the transcript when the messages are compacted', () => {
  it('shows the same, in the same elements, and parses nothing again', async () => {
    const s = useMessagesStore.getState();
    s.beginLoad(C);
    s.finishLoad(C, [message('u', C, { role: 'user', content: 'What is left?', seq: 1 })]);
    const { container } = render(<MessageList conversationId={C} />);
    // The reply comes from a task (what a compaction copies).
    act(() => s.upsert(message('a', C, { content: 'Two things:\n\n- the *tickets*\n- the hotel', seq: 2 })));
    const tickets = await screen.findByText('tickets');
    expect(tickets.tagName).toBe('EM');
    const shown = container.innerHTML;
    const parses = parsed.length;
    expect(parses).toBeGreaterThan(0);

    const before = useMessagesStore.getState().byConversation[C]!.byId.a;
    act(() => useMessagesStore.getState().compact());

    const after = useMessagesStore.getState().byConversation[C]!.byId.a;
    expect(after).toEqual(before);
    expect(after).not.toBe(before);
    expect(container.innerHTML).toBe(shown);
    expect(container.contains(tickets)).toBe(true);
    expect(screen.getByText('tickets')).toBe(tickets);
    expect(parsed).toHaveLength(parses);
  });
});

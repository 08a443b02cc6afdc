import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../api/types';
import { deferred, deliverDelta, message, resetStores, task } from '../../test/fixtures';
import * as api from '../../api';

import { useMessagesStore } from '../../stores/messages';
import { messageOf } from '../../stores/messagesReducer';
import { sendMessage, stopTask } from '../../stores/actions';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { MessageList } from './MessageList';

const C = 'c';

function seed(...msgs: Message[]) {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, msgs);
}

/** A conversation of n messages: prompts and replies, numbered. */
function many(n: number): Message[] {
  return Array.from({ length: n }, (_, i) =>
    message(`m${i}`, C, {
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `Message number ${i}`,
      seq: i + 1,
    }),
  );
}

function scroller() {
  return screen.getByRole('region', { name: 'Messages' });
}

function rows() {
  return Array.from(screen.getByRole('log', { name: 'Conversation' }).children);
}

beforeEach(() => {
  resetStores();
});

describe('MessageList', () => {
  it('shows Loading… before the first load, then the empty state', () => {
    useMessagesStore.getState().beginLoad(C);
    render(<MessageList conversationId={C} />);
    expect(screen.getByRole('log')).toHaveTextContent('Loading…');
    act(() => void useMessagesStore.getState().finishLoad(C, []));
    expect(screen.getByRole('log')).toHaveTextContent('What should Errand do?');
    // The status is there, for screen readers, even with nothing to show.
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
  });

  it('labels a message sent while the agent worked Queued until the task delivers it', () => {
    seed(
      message('p', C, { role: 'user', content: 'Write notes', seq: 1 }),
      message('q', C, { role: 'user', content: 'Also add a date', seq: 2, delivery: 'queued', rev: 1 }),
    );
    render(<MessageList conversationId={C} />);
    const queued = screen.getByText('Also add a date').closest('.row')!;
    expect(queued).toHaveTextContent('Queued');
    expect(screen.getByText('Write notes').closest('.row')).not.toHaveTextContent('Queued');
    // Delivered at the next step: moved after that step's messages, unlabelled.
    act(() => {
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('r', C, { content: 'Listed the files', seq: 3 }) });
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('q', C, { role: 'user', content: 'Also add a date', seq: 4, rev: 2 }) });
    });
    expect(screen.queryByText('Queued')).not.toBeInTheDocument();
    const texts = rows().map((r) => r.textContent ?? '');
    expect(texts.findIndex((t) => t.includes('Also add a date'))).toBeGreaterThan(texts.findIndex((t) => t.includes('Listed the files')));
  });

  it('offers Send now on a queued message while a pause or an approval holds the task, not while it works', async () => {
    seed(message('q', C, { role: 'user', content: 'Wrap up now', seq: 2, delivery: 'queued', taskId: 't' }));
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    render(<MessageList conversationId={C} />);
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
    act(() => handleTaskUpdate(task('t', C, { status: 'paused', stepCount: 1, pauseReason: 'cost' })));
    vi.mocked(api.sendNow).mockResolvedValue(undefined);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send now' }));
    expect(api.sendNow).toHaveBeenCalledWith(C, 'q');
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2 })));
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
  });

  it('says when a queued message was not delivered because the task ended', () => {
    seed(message('q', C, { role: 'user', content: 'Too late', seq: 5, delivery: 'not_delivered' }));
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Too late').closest('.row')).toHaveTextContent('Not delivered · the next task you start sees it');
  });

  it('offers Send now on the last message not delivered, while no task runs', async () => {
    seed(
      message('old', C, { role: 'user', content: 'Older miss', seq: 3, delivery: 'not_delivered' }),
      message('q', C, { role: 'user', content: 'Too late', seq: 5, delivery: 'not_delivered' }),
      message('n', C, { role: 'assistant', content: 'Task stopped', seq: 6 }),
    );
    render(<MessageList conversationId={C} />);
    expect(screen.getAllByRole('button', { name: 'Send now' })).toHaveLength(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send now' }));
    expect(api.sendNow).toHaveBeenCalledWith(C, 'q');
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    expect(screen.queryByRole('button', { name: 'Send now' })).not.toBeInTheDocument();
  });

  it('renders model output without HTML', () => {
    seed(message('a', C, { content: '<img src=x onerror="alert(1)"><b>bold</b>\nsecond line' }));
    const { container } = render(<MessageList conversationId={C} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText(/<b>bold<\/b>/)).toBeInTheDocument();
    expect(screen.getByText(/second line/)).toBeInTheDocument();
  });

  it('shows step badges, cards and expandable tool rows', async () => {
    seed(
      message('a', C, {
        content: 'Working on it',
        step: 2,
        toolCalls: [
          { id: '1', name: 'read_file', arguments: '{"path":"/tmp/x"}' },
          { id: '2', name: 'task_complete', arguments: '{"summary":"All **done**"}' },
        ],
      }),
      message('r', C, { role: 'tool', toolName: 'read_file', toolCallId: '1', content: 'file body', isError: false }),
    );
    render(<MessageList conversationId={C} />);
    // One badge per step: on the message's first item.
    expect(screen.getAllByText('Step 2')).toHaveLength(1);
    expect(screen.getByText('Task complete')).toBeInTheDocument();
    expect(screen.getByText('done').tagName).toBe('STRONG');

    const toggle = screen.getByRole('button', { name: /Used tool read_file/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(/"path": "\/tmp\/x"/)).not.toBeInTheDocument();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/"path": "\/tmp\/x"/)).toBeInTheDocument();

    // One row per call: its result is inside it, not in a row of its own.
    expect(screen.getByText('file body')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /read_file/ })).toHaveLength(1);
  });

  it('folds a long message from the person; every message can be copied whole', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    seed(message('u', C, { role: 'user', content: long }), message('a', C, { content: 'A **short** reply' }));
    render(<MessageList conversationId={C} />);
    const toggle = screen.getByRole('button', { name: 'Show all' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toHaveClass('text-folded');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const copies = screen.getAllByRole('button', { name: 'Copy message' });
    expect(copies).toHaveLength(2);
    await userEvent.click(copies[1]!);
    expect(writeText).toHaveBeenCalledWith('A **short** reply');
  });

  it('shows stopped and failed tasks as system messages', () => {
    seed(
      message('s1', C, { role: 'system', content: 'Stopped by user' }),
      message('s2', C, { role: 'system', content: 'Error: the model server failed', isError: true }),
    );
    const { container } = render(<MessageList conversationId={C} />);
    const notices = container.querySelectorAll('.notice-row');
    expect(Array.from(notices).map((n) => n.textContent)).toEqual(['Stopped by user']);
    expect(screen.getByRole('button', { name: 'The task failed' })).toBeInTheDocument();
  });

  it('shows streaming text as it grows (at the next frame)', async () => {
    seed();
    render(<MessageList conversationId={C} />);
    act(() => {
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('m', C, { streaming: true }) });
    });
    expect(screen.getByRole('img', { name: 'Writing' })).toBeInTheDocument();
    act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 0, text: 'Hel', rev: 2 }));
    expect(screen.getByText('Hel')).toBeInTheDocument();
    act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'm', offset: 3, text: 'lo', rev: 3 }));
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    expect(screen.getByText('Hello').closest('.bubble-agent')).toHaveClass('is-streaming');
  });

  /** A reply streamed in two deltas under a running task, shown. */
  function streamedReply() {
    seed(message('p', C, { role: 'user', content: 'Tell me a story', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'running', stepCount: 1 })));
    render(<MessageList conversationId={C} />);
    act(() => {
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('r', C, { streaming: true, seq: 2, taskId: 't' }) });
      deliverDelta({ conversationId: C, taskId: 't', messageId: 'r', offset: 0, text: 'Once upon ', rev: 2 });
      deliverDelta({ conversationId: C, taskId: 't', messageId: 'r', offset: 10, text: 'a time… ✓', rev: 3 });
    });
  }

  /** The reply's text as the window holds it to show. */
  function shownReply(): string | undefined {
    const conv = useMessagesStore.getState().byConversation[C];
    return conv && messageOf(conv, 'r')?.content;
  }

  /** Go's end of the stream at Stop: the message without its text, and the text's length in bytes. */
  function stopped(contentBytes: number, rev = 4) {
    act(() => {
      handleTaskUpdate(task('t', C, { status: 'cancelled', stepCount: 1, rev: 2, endedAt: '2026-01-01T10:00:05Z' }));
      handleTaskMessage({
        conversationId: C,
        taskId: 't',
        message: message('r', C, { seq: 2, rev, taskId: 't' }),
        streamed: true,
        contentBytes,
        reasoningBytes: 0,
      });
    });
  }

  it('Stop: the status says Stopped and the reply keeps the text streamed, which the end does not carry', async () => {
    streamedReply();
    const text = 'Once upon a time… ✓';
    expect(await screen.findByText(text)).toBeInTheDocument();
    stopped(new TextEncoder().encode(text).length);
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getByText(text).closest('.bubble-agent')).not.toHaveClass('is-streaming');
    // Ended: it can be copied whole, and nothing was read again.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const reply = screen.getByText(text).closest<HTMLElement>('.row')!;
    await userEvent.click(within(reply).getByRole('button', { name: 'Copy message' }));
    expect(writeText).toHaveBeenCalledWith(text);
    expect(api.loadConversation).not.toHaveBeenCalled();
  });

  it('Stop: the reply stops growing at the click, and ends with all the text stored', async () => {
    streamedReply();
    const text = 'Once upon a time… ✓';
    expect(await screen.findByText(text)).toBeInTheDocument();
    const stopping = deferred<Awaited<ReturnType<typeof api.stopTask>>>();
    vi.mocked(api.stopTask).mockReturnValue(stopping.promise);
    act(() => void stopTask('t'));
    // Text Go stored before it heard of the Stop is still arriving: not shown yet.
    const bytes = new TextEncoder().encode(text).length;
    act(() => deliverDelta({ conversationId: C, taskId: 't', messageId: 'r', offset: bytes, text: ' The end.', rev: 4 }));
    expect(shownReply()).toBe(text);
    stopped(bytes + ' The end.'.length, 5);
    act(() =>
      handleTaskMessage({ conversationId: C, taskId: 't', message: message('n', C, { role: 'system', content: 'Stopped by user', seq: 3, taskId: 't' }) }),
    );
    // "Stopped" is shown first, alone: the reply's end and the notice wait for that frame to be painted.
    // The reply is written no more: no caret, though its end has not come.
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getByText(text).closest('.bubble-agent')).not.toHaveClass('is-streaming');
    expect(screen.queryByText('Stopped by user')).not.toBeInTheDocument();
    const ended = await screen.findByText(`${text} The end.`);
    expect(ended.closest('.bubble-agent')).not.toHaveClass('is-streaming');
    expect(screen.getByText('Stopped by user')).toBeInTheDocument();
    expect(api.loadConversation).not.toHaveBeenCalled();
    await act(async () => stopping.resolve({ stopped: true, message: 'Stopped' } as Awaited<ReturnType<typeof api.stopTask>>));
  });

  it('Stop: text stored but not yet shown waits for the frame that says Stopped, then shows', async () => {
    streamedReply();
    const text = 'Once upon a time… ✓';
    expect(await screen.findByText(text)).toBeInTheDocument();
    vi.mocked(api.stopTask).mockReturnValue(deferred<Awaited<ReturnType<typeof api.stopTask>>>().promise);
    // The window's frames from here on, one at a time.
    let frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
    vi.stubGlobal('cancelAnimationFrame', () => {});
    const frame = () =>
      act(() => {
        const now = frames;
        frames = [];
        now.forEach((f) => f(performance.now()));
      });
    try {
      const bytes = new TextEncoder().encode(text).length;
      // The delta reached the store before the click; its render had not come yet.
      act(() => {
        deliverDelta({ conversationId: C, taskId: 't', messageId: 'r', offset: bytes, text: ' And then…', rev: 4 });
        void stopTask('t');
      });
      expect(screen.getByRole('status')).toHaveTextContent('Stopped');
      expect(shownReply()).toBe(`${text} And then…`);
      // The frame that says Stopped shows the reply as it was.
      frame();
      expect(screen.getByText(text)).toBeInTheDocument();
      // Once that frame is on the screen (the next one begins), the reply shows all it has.
      for (let i = 0; i < 3; i++) frame();
      expect(screen.getByText(`${text} And then…`)).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('Stop before the first word: the dots go in the frame that says Stopped', () => {
    seed(message('p', C, { role: 'user', content: 'Tell me a story', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'running', stepCount: 1 })));
    render(<MessageList conversationId={C} />);
    act(() => handleTaskMessage({ conversationId: C, taskId: 't', message: message('r', C, { streaming: true, seq: 2, taskId: 't' }) }));
    expect(screen.getByRole('img', { name: 'Writing' })).toBeInTheDocument();
    vi.mocked(api.stopTask).mockReturnValue(deferred<Awaited<ReturnType<typeof api.stopTask>>>().promise);
    act(() => void stopTask('t'));
    // Go has not answered, and the reply's end has not come: it is still streaming.
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(messageOf(useMessagesStore.getState().byConversation[C]!, 'r')?.streaming).toBe(true);
    expect(screen.queryByRole('img', { name: 'Writing' })).not.toBeInTheDocument();
  });

  it('Stop that fails: the reply goes on growing', async () => {
    streamedReply();
    const text = 'Once upon a time… ✓';
    vi.mocked(api.stopTask).mockRejectedValue(new Error('the backend went away'));
    const bytes = new TextEncoder().encode(text).length;
    await act(async () => {
      const stop = stopTask('t');
      deliverDelta({ conversationId: C, taskId: 't', messageId: 'r', offset: bytes, text: ' And then…', rev: 4 });
      await stop;
    });
    expect(await screen.findByText(`${text} And then…`)).toBeInTheDocument();
    expect(screen.getByText(`${text} And then…`).closest('.bubble-agent')).toHaveClass('is-streaming');
  });

  it('Stop: a window that missed some of the reply reads it again and shows it whole', async () => {
    const whole = 'Once upon a time… ✓ The end.';
    vi.mocked(api.loadConversation).mockResolvedValue({
      conversation: { id: C, title: 'Story' },
      messages: [
        message('p', C, { role: 'user', content: 'Tell me a story', seq: 1 }),
        message('r', C, { content: whole, seq: 2, rev: 5, taskId: 't' }),
      ],
      tasks: [task('t', C, { status: 'cancelled', stepCount: 1, rev: 2, endedAt: '2026-01-01T10:00:05Z' })],
    } as unknown as Awaited<ReturnType<typeof api.loadConversation>>);
    streamedReply();
    // The last delta (" The end.") never arrived: the end says the text is longer.
    stopped(new TextEncoder().encode(whole).length);
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(await screen.findByText(whole)).toBeInTheDocument();
    expect(api.loadConversation).toHaveBeenCalledWith(C);
  });

  it('10,000 messages: only the rows in view are in the DOM, opened at the latest', () => {
    // How long it takes is a figure of MessageList.bench.tsx, not a bound here.
    seed(...many(10_000));
    render(<MessageList conversationId={C} />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(log).toHaveAttribute('data-items', '10000');
    expect(rows().length).toBeGreaterThan(0);
    expect(rows().length).toBeLessThan(80);
    expect(screen.getByText('Message number 9999')).toBeInTheDocument();
    expect(screen.queryByText('Message number 0')).not.toBeInTheDocument();
  });

  it('sticks to the bottom only at the bottom; otherwise offers Jump to latest', async () => {
    seed(...many(400));
    render(<MessageList conversationId={C} />);
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument();

    // The user scrolls up to read.
    const el = scroller();
    act(() => {
      el.scrollTop = 0;
      fireEvent.scroll(el);
    });
    await waitFor(() => expect(screen.getByText('Message number 0')).toBeInTheDocument());
    const jump = screen.getByRole('button', { name: /Jump to latest/ });

    // A new message does not pull them down; the button says there is news.
    act(() => handleTaskMessage({ conversationId: C, taskId: 't', message: message('new', C, { content: 'Fresh news', seq: 1000 }) }));
    expect(el.scrollTop).toBe(0);
    expect(screen.queryByText('Fresh news')).not.toBeInTheDocument();
    expect(jump).toHaveTextContent('New');

    await userEvent.click(jump);
    await waitFor(() => expect(screen.getByText('Fresh news')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument());
    expect(el).toHaveFocus();
  });

  it('the status line is kept, not made anew, when the view scrolls away from the end (its clocks go on)', async () => {
    seed(...many(400));
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2 })));
    render(<MessageList conversationId={C} />);
    const status = screen.getByRole('status');
    const el = scroller();
    act(() => {
      el.scrollTop = 0;
      fireEvent.scroll(el);
    });
    await waitFor(() => expect(screen.getByText('Message number 0')).toBeInTheDocument());
    expect(screen.queryByText('Message number 399')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toBe(status);
  });

  it('a message the person sends brings the view back to the latest', async () => {
    seed(...many(400));
    render(<MessageList conversationId={C} />);
    const el = scroller();
    act(() => {
      el.scrollTop = 0;
      fireEvent.scroll(el);
    });
    await waitFor(() => expect(screen.getByText('Message number 0')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: /Jump to latest/ })).toBeInTheDocument();

    vi.mocked(api.send).mockResolvedValue(task('t2', C, { status: 'running' }));
    await act(() => sendMessage(C, 'Something else'));
    act(() => handleTaskMessage({ conversationId: C, taskId: 't2', message: message('mine', C, { role: 'user', content: 'Something else', seq: 1000 }) }));
    await waitFor(() => expect(screen.getByText('Something else')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('button', { name: /Jump to latest/ })).not.toBeInTheDocument());
  });
});

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import * as api from '../../api';
import { ApiError } from '../../api';
import type { ConversationView, Message, Variation } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import * as events from '../../events';
import { useMessagesStore } from '../../stores/messages';
import { orderedMessages } from '../../stores/messagesReducer';
import { useTasksStore } from '../../stores/tasks';
import { conversation, message, resetStores, task } from '../../test/fixtures';
import { BranchDialog } from './BranchDialog';
import { MessageTools } from './MessageTools';
import { openVariations } from './state';
import { VariationsView } from './VariationsView';

const C = 'c1';

function view(messages: Message[]): ConversationView {
  return { conversation: conversation(C), messages, tasks: [], usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0 };
}

function load(msgs: Message[]): void {
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, msgs);
}

function shown(): string[] {
  const c = useMessagesStore.getState().byConversation[C];
  return c ? orderedMessages(c).map((m) => m.content) : [];
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

describe('the version arrows', () => {
  it('show "‹ 1/2 ›" and switch to the other version, whose branch replaces the one shown', async () => {
    const prompt = message('p', C, { role: 'user', content: 'Plan a trip' });
    const first = message('r1', C, { content: 'First reply', parentId: 'p', versions: 2, version: 1 });
    load([prompt, first]);
    const second = message('r2', C, { content: 'Second reply', parentId: 'p', versions: 2, version: 2 });
    vi.mocked(api.showVersion).mockResolvedValue(view([prompt, second]));
    const user = userEvent.setup();
    render(<MessageTools conversationId={C} messageId="r1" />);

    const group = screen.getByRole('group', { name: 'Versions' });
    expect(group).toHaveTextContent('1/2');
    expect(within(group).getByRole('button', { name: 'Previous version' })).toBeDisabled();
    await user.click(within(group).getByRole('button', { name: 'Next version' }));
    expect(api.showVersion).toHaveBeenCalledWith(C, 'r1', 1);
    await waitFor(() => expect(shown()).toEqual(['Plan a trip', 'Second reply']));
  });

  it('are disabled while a task runs, and a message with one version has none', () => {
    const prompt = message('p', C, { role: 'user', content: 'Hi', versions: 2, version: 2 });
    const reply = message('r', C, { content: 'Hello', parentId: 'p' });
    load([prompt, reply]);
    useTasksStore.getState().apply(task('t', C, { status: 'running' }), 'snapshot');
    const { unmount } = render(<MessageTools conversationId={C} messageId="p" />);
    expect(screen.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit message' })).toBeDisabled();
    unmount();
    render(<MessageTools conversationId={C} messageId="r" />);
    expect(screen.queryByRole('group', { name: 'Versions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  it('Regenerate and Variations are offered on every reply, each acting on its own', async () => {
    const msgs = [
      message('p1', C, { role: 'user', content: 'One' }),
      message('r1', C, { content: 'Reply one' }),
      message('p2', C, { role: 'user', content: 'Two' }),
      message('r2', C, { content: 'Reply two' }),
    ];
    load(msgs);
    vi.mocked(api.regenerate).mockResolvedValue(task('t2', C, { status: 'running' }));
    vi.mocked(api.loadConversation).mockResolvedValue(view(msgs));
    const { unmount } = render(<MessageTools conversationId={C} messageId="r1" />);
    expect(screen.getByRole('button', { name: 'Variations' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(api.regenerate).toHaveBeenCalledWith(C, '', 'r1');
    unmount();
    render(<MessageTools conversationId={C} messageId="p2" />);
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  it('Delete branch asks first, and only a message with other versions has it', async () => {
    const prompt = message('p', C, { role: 'user', content: 'Hi' });
    const reply = message('r', C, { content: 'Hello', parentId: 'p', versions: 2, version: 2 });
    load([prompt, reply]);
    vi.mocked(api.deleteBranch).mockResolvedValue(view([prompt, message('r0', C, { content: 'Hey', parentId: 'p' })]));
    render(
      <>
        <MessageTools conversationId={C} messageId="r" />
        <ConfirmDialog />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Delete branch' }));
    const ask = screen.getByRole('alertdialog', { name: 'Delete this branch?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.deleteBranch).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Delete branch' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete branch' }));
    expect(api.deleteBranch).toHaveBeenCalledWith(C, 'r');
    await waitFor(() => expect(shown()).toEqual(['Hi', 'Hey']));
  });
});

describe('the branch dialog', () => {
  it('opens on the shared folder; Esc closes it and gives the focus back to the button that opened it', async () => {
    load([message('p', C, { role: 'user', content: 'Hi' }), message('r', C, { content: 'Hello' })]);
    render(
      <>
        <MessageTools conversationId={C} messageId="r" />
        <BranchDialog />
      </>,
    );
    const opener = screen.getByRole('button', { name: 'Branch into new conversation' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Branch into new conversation' });
    expect(within(dialog).getByRole('radio', { name: "Share this conversation's folder" })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
    expect(api.branchIntoConversation).not.toHaveBeenCalled();
  });
});

/** A variation as Go reports it. */
function variation(index: number, text: string, more: Partial<Variation> = {}): Variation {
  return {
    conversationId: C,
    replyId: 'r',
    index,
    model: 'mock-a',
    text,
    rev: 1,
    done: false,
    elapsedMs: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    costUsd: 0,
    ...more,
  };
}

/** Delivers a variation event to the view, as Go's agent:variation would. */
function deliver(v: Variation): void {
  const handler = vi.mocked(events.onVariation).mock.calls.at(-1)?.[0];
  act(() => handler?.(v));
}

describe('the variations view', () => {
  it('asks "How many", streams them side by side with Stop, shows their figures, and "Keep this one" shows the chosen one', async () => {
    const prompt = message('p', C, { role: 'user', content: 'Name a cat' });
    const reply = message('r', C, { content: 'Tom' });
    load([prompt, reply]);
    let finish: (vs: Variation[]) => void = () => {};
    vi.mocked(api.variations).mockReturnValue(new Promise((resolve) => (finish = resolve)));
    vi.mocked(api.loadConversation).mockResolvedValue(view([prompt, reply]));
    const kept = message('v1', C, { content: 'Luna', parentId: 'p' });
    vi.mocked(api.switchBranch).mockResolvedValue(view([prompt, { ...kept, versions: 3, version: 3 }]));
    const user = userEvent.setup();
    openVariations(C, 'r');
    render(<VariationsView />);

    const dialog = screen.getByRole('dialog', { name: 'Variations' });
    const howMany = within(dialog).getByRole('spinbutton', { name: 'How many' });
    expect(howMany).toHaveValue(3);
    expect(within(dialog).getAllByRole('region')).toHaveLength(3);
    await user.clear(howMany);
    await user.type(howMany, '2');
    expect(within(dialog).getAllByRole('region')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Write variations' }));
    expect(api.variations).toHaveBeenCalledWith(C, 'r', 2, ['', '']);

    // They stream side by side; a stale report does not undo a newer one.
    deliver(variation(0, 'Fel', { rev: 2 }));
    deliver(variation(0, 'F', { rev: 1 }));
    deliver(variation(1, 'Lu'));
    const columns = within(dialog).getAllByRole('region');
    expect(columns[0]).toHaveTextContent('Fel');
    expect(columns[1]).toHaveTextContent('Lu');
    await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(api.stopVariations).toHaveBeenCalledWith(C);

    const usage = (total: number) => ({ promptTokens: total - 10, completionTokens: 10, totalTokens: total, cacheReadTokens: 0, cacheWriteTokens: 0 });
    await act(async () =>
      finish([
        variation(0, 'Felix', { done: true, rev: 3, usage: usage(1234), costUsd: 0.0042, elapsedMs: 3000, message: message('v0', C, { content: 'Felix' }) }),
        variation(1, 'Luna', { done: true, stopped: true, rev: 2, usage: usage(56), costUsd: 0.25, elapsedMs: 61000, message: kept }),
      ]),
    );
    expect(columns[0]).toHaveTextContent('1,234 tokens');
    expect(columns[0]).toHaveTextContent('$0.0042');
    expect(columns[0]).toHaveTextContent('0:03');
    expect(columns[1]).toHaveTextContent('Stopped');
    expect(columns[1]).toHaveTextContent('56 tokens');
    expect(columns[1]).toHaveTextContent('$0.250');
    expect(columns[1]).toHaveTextContent('1:01');
    const keep = within(dialog).getAllByRole('button', { name: 'Keep this one' });
    expect(keep).toHaveLength(2);
    await user.click(keep[1]!);
    expect(api.switchBranch).toHaveBeenCalledWith(C, 'v1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Variations' })).toBeNull());
    expect(shown()).toEqual(['Name a cat', 'Luna']);
  });

  it('Esc while they are written stops them rather than closing the view', async () => {
    load([message('p', C, { role: 'user', content: 'Name a cat' }), message('r', C, { content: 'Tom' })]);
    vi.mocked(api.variations).mockReturnValue(new Promise(() => {}));
    openVariations(C, 'r');
    render(<VariationsView />);
    await userEvent.click(screen.getByRole('button', { name: 'Write variations' }));
    await userEvent.keyboard('{Escape}');
    expect(api.stopVariations).toHaveBeenCalledWith(C);
    expect(screen.getByRole('dialog', { name: 'Variations' })).toBeInTheDocument();
  });

  it('a count Go refuses is shown on the "How many" field, and nothing is written', async () => {
    load([message('p', C, { role: 'user', content: 'Name a cat' }), message('r', C, { content: 'Tom' })]);
    vi.mocked(api.variations).mockRejectedValue(new ApiError('invalid', 'Choose between 1 and 5 variations, not 9.', undefined, 'count'));
    openVariations(C, 'r');
    render(<VariationsView />);
    const howMany = screen.getByRole('spinbutton', { name: 'How many' });
    await userEvent.clear(howMany);
    await userEvent.type(howMany, '9');
    await userEvent.click(screen.getByRole('button', { name: 'Write variations' }));
    expect(api.variations).toHaveBeenCalledWith(C, 'r', 9, ['', '', '', '', '']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose between 1 and 5 variations, not 9.');
    expect(howMany).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('button', { name: 'Keep this one' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Write variations' })).toBeEnabled();
  });
});

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import * as api from '../../api';
import type { ConversationView, Message } from '../../api/types';
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

  it('Regenerate and Variations are offered on the last reply only', () => {
    const msgs = [
      message('p1', C, { role: 'user', content: 'One' }),
      message('r1', C, { content: 'Reply one' }),
      message('p2', C, { role: 'user', content: 'Two' }),
      message('r2', C, { content: 'Reply two' }),
    ];
    load(msgs);
    const { unmount } = render(<MessageTools conversationId={C} messageId="r1" />);
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Branch into new conversation' })).toBeInTheDocument();
    unmount();
    render(<MessageTools conversationId={C} messageId="r2" />);
    expect(screen.getByRole('button', { name: 'Regenerate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Variations' })).toBeInTheDocument();
  });

  it('Regenerate moves to a newer reply as it is stored, from rows already shown', () => {
    load([message('p1', C, { role: 'user', content: 'One' }), message('r1', C, { content: 'Reply one' })]);
    render(
      <>
        <div data-testid="r1">
          <MessageTools conversationId={C} messageId="r1" />
        </div>
        <div data-testid="r2">
          <MessageTools conversationId={C} messageId="r2" />
        </div>
      </>,
    );
    const regenerateIn = (id: string) => within(screen.getByTestId(id)).queryByRole('button', { name: 'Regenerate' });
    expect(regenerateIn('r1')).toBeInTheDocument();

    act(() => {
      useMessagesStore.getState().upsert(message('p2', C, { role: 'user', content: 'Two' }));
      useMessagesStore.getState().upsert(message('r2', C, { content: 'Reply two' }));
    });
    expect(regenerateIn('r1')).toBeNull();
    expect(regenerateIn('r2')).toBeInTheDocument();
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

describe('the variations view', () => {
  it('writes three replies side by side, one model per column, and "Keep this one" shows the chosen one', async () => {
    const prompt = message('p', C, { role: 'user', content: 'Name a cat' });
    const reply = message('r', C, { content: 'Tom' });
    load([prompt, reply]);
    const vs = ['Felix', 'Luna', 'Milo'].map((text, i) => message(`v${i}`, C, { content: text, parentId: 'p' }));
    vi.mocked(api.variations).mockResolvedValue(vs);
    vi.mocked(api.switchBranch).mockResolvedValue(view([prompt, { ...vs[1]!, versions: 4, version: 3 }]));
    const user = userEvent.setup();
    openVariations(C, 'r');
    render(<VariationsView />);

    const dialog = screen.getByRole('dialog', { name: 'Variations' });
    expect(within(dialog).getAllByRole('region')).toHaveLength(3);
    expect(within(dialog).queryByRole('button', { name: 'Keep this one' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Write variations' }));
    expect(api.variations).toHaveBeenCalledWith(C, 'r', ['', '', '']);
    const columns = await within(dialog).findAllByRole('region');
    await waitFor(() => expect(columns.map((c) => c.textContent)).toEqual([
      expect.stringContaining('Felix'),
      expect.stringContaining('Luna'),
      expect.stringContaining('Milo'),
    ]));
    const keep = within(dialog).getAllByRole('button', { name: 'Keep this one' });
    expect(keep).toHaveLength(3);
    await user.click(keep[1]!);
    expect(api.switchBranch).toHaveBeenCalledWith(C, 'v1');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Variations' })).toBeNull());
    expect(shown()).toEqual(['Name a cat', 'Luna']);
  });
});

import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../api/types';
import { conversation, deferred, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskUpdate, loadConversation } from '../../stores/sync';
import { ConversationBar } from './ConversationBar';

const C = 'c1';
const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c, cacheReadTokens: 0, cacheWriteTokens: 0 });

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('ConversationBar', () => {
  it('shows the workspace folder readably; Choose folder… sets another, a cancelled picker changes nothing', async () => {
    const own = { path: '/home/me/.config/Errand/workspaces/0b6f1c2e-9d4a', default: true, missing: false };
    vi.mocked(api.workspace).mockResolvedValueOnce(own);
    const user = userEvent.setup();
    render(<ConversationBar conversationId={C} />);
    const path = await screen.findByTitle(own.path);
    // Shown in words; the uuid path only to screen readers and as the tooltip.
    expect(path.firstChild?.textContent).toBe("this conversation's own folder");

    vi.mocked(api.openWorkspaceFolder).mockResolvedValueOnce(undefined);
    await user.click(screen.getByRole('button', { name: 'Open folder' }));
    expect(api.openWorkspaceFolder).toHaveBeenCalledWith(C);

    // Cancelled: Go returns the conversation as it was.
    vi.mocked(api.chooseWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '' }));
    await user.click(screen.getByRole('button', { name: 'Choose folder…' }));
    expect(api.chooseWorkspace).toHaveBeenCalledWith(C);
    expect(api.workspace).toHaveBeenCalledTimes(1);

    vi.mocked(api.chooseWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '/srv/site' }));
    vi.mocked(api.workspace).mockResolvedValueOnce({ path: '/srv/site', default: false, missing: false });
    await user.click(screen.getByRole('button', { name: 'Choose folder…' }));
    expect(await screen.findByTitle('/srv/site')).toHaveTextContent('/srv/site');

    vi.mocked(api.setWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '' }));
    vi.mocked(api.workspace).mockResolvedValueOnce(own);
    await user.click(screen.getByRole('button', { name: 'Use default' }));
    expect(api.setWorkspace).toHaveBeenCalledWith(C, '');
    expect(await screen.findByTitle(own.path)).toBeInTheDocument();
  });

  it('a conversation opened again shows its folder as last read at once, then as Go reads it now', async () => {
    vi.mocked(api.workspace).mockResolvedValueOnce({ path: '/srv/site', default: false, missing: false });
    useConversationsStore.getState().upsert(conversation(C, { workspace: '/srv/site' }));
    const first = render(<ConversationBar conversationId={C} />);
    expect(await screen.findByTitle('/srv/site')).toBeInTheDocument();
    first.unmount();

    const now = deferred<{ path: string; default: boolean; missing: boolean }>();
    vi.mocked(api.workspace).mockReturnValueOnce(now.promise);
    render(<ConversationBar conversationId={C} />);
    expect(screen.getByTitle('/srv/site')).toHaveTextContent('/srv/site');
    expect(screen.getByRole('button', { name: 'Open folder' })).toBeInTheDocument();
    await act(async () => now.resolve({ path: '/srv/site', default: false, missing: true }));
    expect(screen.getByText('Workspace not found:')).toBeInTheDocument();
  });

  it('a chosen folder that is gone is shown as such, with a way to pick another', async () => {
    useConversationsStore.getState().upsert(conversation(C, { workspace: '/srv/old' }));
    vi.mocked(api.workspace).mockResolvedValueOnce({ path: '/srv/old', default: false, missing: true });
    render(<ConversationBar conversationId={C} />);
    expect(await screen.findByText('Workspace not found:')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose another folder…' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open folder' })).not.toBeInTheDocument();
  });

  it("shows the conversation's usage from LoadConversation, updated live by task updates", async () => {
    vi.mocked(api.workspace).mockResolvedValue({ path: '/w', default: true, missing: false });
    const view: ConversationView = {
      conversation: conversation(C),
      messages: [],
      tasks: [task('old', C, { status: 'completed', usage: usage(1000, 200), costUsd: 0.01 })],
      activeTask: task('t', C, { status: 'thinking', stepCount: 1, usage: usage(500, 0), costUsd: 0.002 }),
      usage: usage(1500, 200),
      costUsd: 0.012,
    };
    vi.mocked(api.loadConversation).mockResolvedValue(view);
    render(<ConversationBar conversationId={C} />);
    await act(() => loadConversation(C));
    expect(screen.getByLabelText('Conversation usage: 1,700 tokens, $0.012')).toBeInTheDocument();

    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 2, usage: usage(1000, 300), costUsd: 0.007 })));
    await waitFor(() =>
      expect(screen.getByLabelText('Conversation usage: 2,500 tokens, $0.017')).toBeInTheDocument(),
    );
    // A new task adds to it.
    act(() => handleTaskUpdate(task('t2', C, { status: 'running', usage: usage(100, 100), costUsd: 0.001 })));
    expect(screen.getByLabelText('Conversation usage: 2,700 tokens, $0.018')).toBeInTheDocument();
  });

  it('a model without a price says so instead of $0.00', async () => {
    vi.mocked(api.workspace).mockResolvedValue({ path: '/w', default: true, missing: false });
    vi.mocked(api.loadConversation).mockResolvedValue({
      conversation: conversation(C),
      messages: [],
      tasks: [task('old', C, { status: 'completed', usage: usage(1000, 200), costUsd: 0 })],
      usage: usage(1000, 200),
      costUsd: 0,
    });
    render(<ConversationBar conversationId={C} />);
    await act(() => loadConversation(C));
    const u = screen.getByLabelText('Conversation usage: 1,200 tokens, no price');
    expect(u.getAttribute('title')).toMatch(/spend limit does not apply/);
  });
});

import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../api/types';
import { conversation, resetStores, summary, task } from '../../test/fixtures';

vi.mock('../../api', () => ({
  workspaceDir: vi.fn(),
  chooseWorkspace: vi.fn(),
  setWorkspace: vi.fn(),
  loadConversation: vi.fn(),
}));
vi.mock('../../events', () => ({ subscribeAll: vi.fn(() => () => {}) }));

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskUpdate, loadConversation } from '../../stores/sync';
import { ConversationBar } from './ConversationBar';

const C = 'c1';
const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('ConversationBar', () => {
  it('shows the workspace folder; Choose folder… sets another, a cancelled picker changes nothing', async () => {
    vi.mocked(api.workspaceDir).mockResolvedValueOnce('/home/me/.config/Errand/workspaces/c1');
    const user = userEvent.setup();
    render(<ConversationBar conversationId={C} />);
    const path = await screen.findByTitle('/home/me/.config/Errand/workspaces/c1');
    expect(path).toHaveTextContent('…/Errand/workspaces/c1');
    expect(screen.getByText('Workspace (default)')).toBeInTheDocument();

    // Cancelled: Go returns the conversation as it was.
    vi.mocked(api.chooseWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '' }));
    await user.click(screen.getByRole('button', { name: 'Choose folder…' }));
    expect(api.chooseWorkspace).toHaveBeenCalledWith(C);
    expect(api.workspaceDir).toHaveBeenCalledTimes(1);
    expect(screen.getByTitle('/home/me/.config/Errand/workspaces/c1')).toBeInTheDocument();

    vi.mocked(api.chooseWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '/srv/site' }));
    vi.mocked(api.workspaceDir).mockResolvedValueOnce('/srv/site');
    await user.click(screen.getByRole('button', { name: 'Choose folder…' }));
    expect(await screen.findByTitle('/srv/site')).toBeInTheDocument();
    expect(screen.getByText('Workspace')).toBeInTheDocument();

    vi.mocked(api.setWorkspace).mockResolvedValueOnce(conversation(C, { workspace: '' }));
    vi.mocked(api.workspaceDir).mockResolvedValueOnce('/home/me/.config/Errand/workspaces/c1');
    await user.click(screen.getByRole('button', { name: 'Use default' }));
    expect(api.setWorkspace).toHaveBeenCalledWith(C, '');
    expect(await screen.findByTitle('/home/me/.config/Errand/workspaces/c1')).toBeInTheDocument();
  });

  it("shows the conversation's usage from LoadConversation, updated live by task updates", async () => {
    vi.mocked(api.workspaceDir).mockResolvedValue('/w');
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
});

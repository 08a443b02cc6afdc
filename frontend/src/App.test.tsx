import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationView } from './api/types';
import type { EventHandlers } from './events';
import { conversation, message, resetStores, summary, task, modelInfo, NOTHING_USED } from './test/fixtures';

import * as api from './api';
import { ApiError } from './api/errors';
import { App } from './App';
import * as events from './events';

/** The handlers the app subscribed to Go's events with. */
function emit(): EventHandlers {
  const handlers = vi.mocked(events.subscribeAll).mock.calls.at(-1)?.[0];
  if (!handlers) throw new Error('not subscribed');
  return handlers;
}

function view(id: string, over: Partial<ConversationView> = {}): ConversationView {
  return { ...NOTHING_USED, conversation: conversation(id), messages: [], tasks: [], ...over };
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  // Whether thinking blocks show.
  vi.mocked(api.getSettings).mockResolvedValue({ showThinking: true } as Awaited<ReturnType<typeof api.getSettings>>);
  vi.mocked(api.setViewing).mockResolvedValue(undefined);
  vi.mocked(api.modelInfo).mockResolvedValue(modelInfo({ model: 'gpt-test', baseUrl: 'http://x', demo: false }));
  vi.mocked(api.currentModels).mockResolvedValue(['gpt-test', 'gpt-other']);
});

describe('App', () => {
  it('opens the most recent conversation and shows its transcript', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValue({
      items: [
        summary('old', { title: 'Old one', updatedAt: '2026-01-01T09:00:00Z' }),
        summary('new', { title: 'Newest', updatedAt: '2026-01-02T09:00:00Z' }),
      ],
      nextCursor: '',
    });
    vi.mocked(api.loadConversation).mockImplementation(async (id) =>
      view(id, {
        ...NOTHING_USED,
        conversation: conversation(id, { title: id === 'new' ? 'Newest' : 'Old one' }),
        messages: [message(`${id}-u`, id, { role: 'user', content: `hello from ${id}` })],
      }),
    );
    render(<App />);
    expect(await screen.findByText('hello from new')).toBeInTheDocument();
    expect(api.loadConversation).toHaveBeenCalledWith('new');
    expect(screen.getByRole('heading', { name: 'Newest' })).toBeInTheDocument();
    const picker = await screen.findByRole('combobox', { name: 'Model for this conversation' });
    expect(picker).toHaveDisplayValue('Default · gpt-test');
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    expect(screen.queryByText(/Demo model/)).not.toBeInTheDocument();
  });

  it('creates a conversation when there are none, and labels the demo model', async () => {
    vi.mocked(api.modelInfo).mockResolvedValue(modelInfo({ model: 'errand-demo', baseUrl: '', demo: true }));
    vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [], nextCursor: '' });
    vi.mocked(api.createConversation).mockResolvedValue(conversation('fresh', { title: '' }));
    vi.mocked(api.loadConversation).mockResolvedValue(view('fresh', { ...NOTHING_USED, conversation: conversation('fresh', { title: '' }) }));
    render(<App />);
    await waitFor(() => expect(api.createConversation).toHaveBeenCalledTimes(1));
    const banner = await screen.findByRole('note', { name: 'Demo model' });
    expect(banner).toHaveTextContent(/demo model.*built in and works offline/);
    expect(within(banner).getByRole('button', { name: 'Connect a model' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Demo model' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Model for this conversation' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });

  it('tracks other conversations from events: live dot, needs input, unread; opening clears unread', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValue({
      items: [
        summary('a', { title: 'Alpha', updatedAt: '2026-01-02T00:00:00Z' }),
        summary('b', { title: 'Beta', updatedAt: '2026-01-01T00:00:00Z' }),
      ],
      nextCursor: '',
    });
    vi.mocked(api.loadConversation).mockImplementation(async (id) =>
      view(id, { ...NOTHING_USED, conversation: conversation(id, { title: id === 'a' ? 'Alpha' : 'Beta' }) }),
    );
    const user = userEvent.setup();
    render(<App />);
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalledWith('a'));

    act(() => {
      emit().onTaskUpdate(task('tb', 'b', { status: 'thinking', stepCount: 1 }));
      emit().onTaskMessage({ conversationId: 'b', taskId: 'tb', message: message('m1', 'b', { content: 'first', createdAt: '2026-01-03T00:00:00Z' }) });
      emit().onTaskMessage({ conversationId: 'b', taskId: 'tb', message: message('m2', 'b', { content: 'second' }) });
    });
    const rowB = screen.getByRole('button', { name: /^Beta/ });
    expect(within(rowB).getByText('Working')).toBeInTheDocument();
    expect(rowB).toHaveTextContent('2 unread');
    // Activity moved Beta to the top.
    const rows = screen.getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Beta');
    // The open conversation's status is unaffected.
    expect(screen.getByRole('status')).toHaveTextContent('Ready');

    act(() => emit().onTaskUpdate(task('tb', 'b', { status: 'waiting_user', stepCount: 1, pendingQuestion: 'Sure?' })));
    expect(within(rowB).getByText('Needs input')).toBeInTheDocument();

    vi.mocked(api.loadConversation).mockResolvedValueOnce(
      view('b', {
        ...NOTHING_USED,
        conversation: conversation('b', { title: 'Beta' }),
        messages: [message('m1', 'b', { content: 'first' }), message('m2', 'b', { content: 'second' })],
        activeTask: task('tb', 'b', { status: 'waiting_user', stepCount: 1, pendingQuestion: 'Sure?' }),
      }),
    );
    await user.click(rowB);
    expect(await screen.findByText('second')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Beta/ })).not.toHaveTextContent('unread');
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for your answer');
    expect(screen.getByRole('button', { name: 'Reply' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('placeholder', 'Sure?');
  });

  it('shows a failed start as a readable, dismissible alert with a retry', async () => {
    vi.mocked(api.listConversationsPage).mockRejectedValueOnce(new ApiError('internal', 'database is locked'));
    const user = userEvent.setup();
    render(<App />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('database is locked');
    await user.click(within(alert).getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    vi.mocked(api.listConversationsPage).mockResolvedValueOnce({ items: [summary('a')], nextCursor: '' });
    vi.mocked(api.loadConversation).mockResolvedValue(view('a'));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalledWith('a'));
  });

  it('renames by double-clicking the title', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [summary('a', { title: 'Draft' })], nextCursor: '' });
    vi.mocked(api.loadConversation).mockResolvedValue(view('a', { ...NOTHING_USED, conversation: conversation('a', { title: 'Draft' }) }));
    vi.mocked(api.renameConversation).mockResolvedValue(conversation('a', { title: 'Trip to Rome', titleSet: true }));
    const user = userEvent.setup();
    render(<App />);
    await user.dblClick(await screen.findByRole('heading', { name: 'Draft' }));
    const input = screen.getByRole('textbox', { name: 'Conversation title' });
    await user.clear(input);
    await user.type(input, 'Trip to Rome{Enter}');
    expect(api.renameConversation).toHaveBeenCalledWith('a', 'Trip to Rome');
    expect(await screen.findByRole('heading', { name: 'Trip to Rome' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Trip to Rome/ })).toBeInTheDocument();
  });

  it('a task started from the composer shows progress, then the stop notice', async () => {
    vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [summary('a')], nextCursor: '' });
    vi.mocked(api.loadConversation).mockResolvedValue(view('a'));
    vi.mocked(api.send).mockResolvedValue(task('t', 'a', { status: 'running' }));
    const user = userEvent.setup();
    render(<App />);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalled());
    await user.type(box, 'Research flights{Enter}');
    act(() => {
      emit().onTaskMessage({ conversationId: 'a', taskId: 't', message: message('u', 'a', { role: 'user', content: 'Research flights' }) });
      emit().onTaskUpdate(task('t', 'a', { status: 'tool_executing', stepCount: 1, currentTool: 'web_search' }));
    });
    expect(screen.getByText('Research flights')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Running web_search…Step 1');
    expect(screen.getByRole('button', { name: /^Conversation a/ })).toContainElement(screen.getByText('Working'));

    vi.mocked(api.stopTask).mockResolvedValue({ stopped: true, task: task('t', 'a', { status: 'cancelled' }), message: '' });
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    act(() => {
      emit().onTaskMessage({ conversationId: 'a', taskId: 't', message: message('s', 'a', { role: 'system', content: 'Stopped by user' }) });
    });
    expect(screen.getByText('Stopped by user')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });
});

describe('App start: the first screen in one call', () => {
  const ready = { ready: true, readOnly: false, dataDir: '/data' };

  function onlyTheFirstScreenWasAsked() {
    expect(api.firstScreen).toHaveBeenCalledTimes(1);
    for (const part of [api.healthStatus, api.listConversationsPage, api.loadConversation, api.createConversation, api.modelInfo, api.getSettings, api.listAgents]) {
      expect(part).not.toHaveBeenCalled();
    }
  }

  it('shows the newest conversation, the list and the model from that one answer', async () => {
    vi.mocked(api.firstScreen).mockResolvedValue({
      status: ready,
      modelInfo: modelInfo({ model: 'gpt-test', baseUrl: 'http://x', demo: false }),
      showThinking: true,
      agents: [],
      conversations: {
        items: [summary('new', { title: 'Newest' }), summary('old', { title: 'Old one' })],
        nextCursor: '',
      },
      open: view('new', {
        conversation: conversation('new', { title: 'Newest' }),
        messages: [message('u', 'new', { role: 'user', content: 'hello from new' })],
      }),
      workspace: { path: '/data/workspaces/new', default: true, missing: false },
    });
    // Go is asked again, but the folder shows from the first screen's answer.
    vi.mocked(api.workspace).mockReturnValue(new Promise(() => {}));
    render(<App />);
    expect(await screen.findByText('hello from new')).toBeInTheDocument();
    expect(screen.getByTitle('/data/workspaces/new').firstChild?.textContent).toBe("this conversation's own folder");
    expect(screen.getByRole('heading', { name: 'Newest' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Old one/ })).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Model for this conversation' })).toHaveDisplayValue('Default · gpt-test');
    expect(screen.getByRole('status')).toHaveTextContent('Ready');
    onlyTheFirstScreenWasAsked();
  });

  it('with no history, opens the new empty conversation Go made, and labels the demo model', async () => {
    vi.mocked(api.firstScreen).mockResolvedValue({
      status: ready,
      modelInfo: modelInfo({ model: 'errand-demo', demo: true }),
      showThinking: true,
      agents: [],
      conversations: { items: [], nextCursor: '' },
      open: view('fresh', { conversation: conversation('fresh', { title: '' }) }),
    });
    render(<App />);
    expect(await screen.findByRole('note', { name: 'Demo model' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    onlyTheFirstScreenWasAsked();
  });

  it('when Errand cannot start, the answer is its status: the full-window error, and nothing else is asked', async () => {
    vi.mocked(api.firstScreen).mockResolvedValue({
      status: { ready: false, readOnly: false, message: 'Another Errand is already using /data/errand.', dataDir: '/data/errand' },
    });
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Errand cannot start' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Another Errand is already using /data/errand.');
    onlyTheFirstScreenWasAsked();
  });

  it('a part Go could not read is asked for alone, and its failure is said', async () => {
    vi.mocked(api.firstScreen).mockResolvedValue({
      status: ready,
      showThinking: true,
      agents: [],
      conversations: { items: [summary('a', { title: 'Alpha' })], nextCursor: '' },
    });
    vi.mocked(api.modelInfo).mockRejectedValue(new ApiError('internal', 'keyring locked'));
    vi.mocked(api.loadConversation).mockResolvedValue(view('a', { conversation: conversation('a', { title: 'Alpha' }) }));
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Alpha' })).toBeInTheDocument();
    expect(api.loadConversation).toHaveBeenCalledWith('a');
    expect(await screen.findByRole('alert')).toHaveTextContent('keyring locked');
    expect(api.listConversationsPage).not.toHaveBeenCalled();
    expect(api.createConversation).not.toHaveBeenCalled();
  });
});

// The decision line on a reply, the re-run it offers, and the plan pinned
// above the transcript, wired to the stores as the chat view has them.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message, Plan } from '../../api/types';
import { conversation, message, resetStores, summary, task, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { MessageList } from '../chat/MessageList';
import { ConversationPlan } from '../plan/ConversationPlan';

const C = 'c1';

function View() {
  return (
    <>
      <ConversationPlan conversationId={C} />
      <MessageList conversationId={C} />
    </>
  );
}

function msg(m: Message) {
  act(() => handleTaskMessage({ conversationId: C, taskId: m.taskId ?? '', message: m }));
}

const plan = (steps: Plan['steps']): Plan => ({ taskId: 't', conversationId: C, revision: 1, steps, updatedAt: '2026-01-01T10:00:00Z' });

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, []);
});

describe('decision line', () => {
  it('says a reply was answered directly and re-runs it as a task, shown as the message\'s second version', async () => {
    const user = userEvent.setup();
    const rerun = task('t2', C, { status: 'running', decision: { by: 'rerun' }, rev: 1 });
    vi.mocked(api.rerunMessage).mockResolvedValue(rerun);
    vi.mocked(api.loadConversation).mockResolvedValue({
      ...NOTHING_USED,
      conversation: conversation(C),
      messages: [message('u2', C, { role: 'user', content: 'What is 2+2?', taskId: 't2', seq: 3, versions: 2, version: 2 })],
      tasks: [],
      activeTask: rerun,
    });
    render(<View />);
    msg(message('u', C, { role: 'user', content: 'What is 2+2?', taskId: 't', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { mode: 'chat', status: 'completed', decision: { by: 'auto' }, rev: 2 })));
    msg(message('a', C, { role: 'assistant', content: '4', taskId: 't', seq: 2 }));
    const log = screen.getByRole('log');
    expect(log).toHaveTextContent('Answered directly');
    await user.click(within(log).getByRole('button', { name: 'Run as a task instead' }));
    expect(api.rerunMessage).toHaveBeenCalledWith(C, 'u', 'agent');
    expect(await within(log).findByText('Working on it as a task')).toBeInTheDocument();
    expect(within(log).queryByText('4')).toBeNull();
  });

  it('keeps the re-run\'s reply heard while its branch was being read', async () => {
    const user = userEvent.setup();
    const rerun = task('t2', C, { status: 'running', decision: { by: 'rerun' }, rev: 1 });
    vi.mocked(api.rerunMessage).mockResolvedValue(rerun);
    let answer: (v: Awaited<ReturnType<typeof api.loadConversation>>) => void = () => {};
    vi.mocked(api.loadConversation).mockReturnValue(new Promise((resolve) => (answer = resolve)));
    render(<View />);
    msg(message('u', C, { role: 'user', content: 'What is 2+2?', taskId: 't', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { mode: 'chat', status: 'completed', decision: { by: 'auto' }, rev: 2 })));
    msg(message('a', C, { role: 'assistant', content: '4', taskId: 't', seq: 2 }));
    const log = screen.getByRole('log');
    await user.click(within(log).getByRole('button', { name: 'Run as a task instead' }));
    // Go read the branch, then the re-run replied: its reply is heard before the branch arrives.
    msg(message('u2', C, { role: 'user', content: 'What is 2+2?', taskId: 't2', seq: 3, versions: 2, version: 2 }));
    msg(message('a2', C, { role: 'assistant', content: 'Done: four', taskId: 't2', seq: 4, parentId: 'u2' }));
    await act(async () =>
      answer({
        ...NOTHING_USED,
        conversation: conversation(C),
        messages: [message('u2', C, { role: 'user', content: 'What is 2+2?', taskId: 't2', seq: 3, versions: 2, version: 2 })],
        tasks: [],
        activeTask: rerun,
      }),
    );
    expect(within(log).getByText('Done: four')).toBeInTheDocument();
    expect(within(log).queryByText('4')).toBeNull();
  });

  it('says a task is being worked on, offers a direct answer once it ends, and says how a re-run was answered', () => {
    render(<View />);
    msg(message('u', C, { role: 'user', content: 'Write notes.txt', taskId: 't', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'running', decision: { by: 'auto' }, rev: 1 })));
    const log = screen.getByRole('log');
    expect(log).toHaveTextContent('Working on it as a task');
    expect(within(log).getByRole('button', { name: 'Just answer instead' })).toBeDisabled();
    act(() => handleTaskUpdate(task('t', C, { status: 'completed', decision: { by: 'auto' }, rev: 2 })));
    expect(within(log).getByRole('button', { name: 'Just answer instead' })).toBeEnabled();

    msg(message('u2', C, { role: 'user', content: 'Write notes.txt', taskId: 't2', seq: 3 }));
    act(() => handleTaskUpdate(task('t2', C, { mode: 'chat', status: 'completed', decision: { by: 'rerun' }, rev: 1 })));
    expect(log).toHaveTextContent('Answered directly');
  });

  it('shows nothing for a reply the conversation\'s own mode decided', () => {
    render(<View />);
    msg(message('u', C, { role: 'user', content: 'Write notes.txt', taskId: 't', seq: 1 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'running', rev: 1 })));
    expect(screen.queryByRole('button', { name: /instead/ })).toBeNull();
  });
});

describe('conversation plan', () => {
  it('is pinned while the task writes it, follows each revision, and stays once the task ends', () => {
    render(<View />);
    expect(screen.queryByRole('region', { name: 'Plan' })).toBeNull();
    const steps: Plan['steps'] = [
      { title: 'Read the notes', status: 'in_progress' },
      { title: 'Write the summary', status: 'pending' },
    ];
    act(() => handleTaskUpdate(task('t', C, { status: 'running', plan: plan(steps), rev: 1 })));
    const region = screen.getByRole('region', { name: 'Plan' });
    expect(within(region).getByRole('button', { name: /Plan · 0 of 2/ })).toBeInTheDocument();
    const done = plan(steps.map((s) => ({ ...s, status: 'done' as const })));
    act(() => handleTaskUpdate(task('t', C, { status: 'completed', plan: { ...done, revision: 2 }, rev: 2 })));
    expect(screen.getByRole('button', { name: /Plan · 2 of 2/ })).toBeInTheDocument();
  });
});

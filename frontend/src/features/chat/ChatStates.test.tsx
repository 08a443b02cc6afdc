// The transcript, the indicator below it and the composer together, in each
// state of a task: idle, thinking, tool, waiting with choices, completed,
// cancelled and error.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../api/types';
import { message, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { handleToolOutput } from '../../stores/toolOutput';
import { Composer } from './Composer';
import { MessageList } from './MessageList';

const C = 'c1';

function View() {
  return (
    <>
      <MessageList conversationId={C} />
      <Composer conversationId={C} />
    </>
  );
}

function statusText() {
  return screen.getByRole('status').querySelector('.status-text')?.textContent;
}

function msg(m: Message) {
  act(() => handleTaskMessage({ conversationId: C, taskId: 't', message: m }));
}

const prompt = () => msg(message('u', C, { role: 'user', content: 'Plan a trip', taskId: 't', seq: 1 }));

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, []);
});

describe('chat states', () => {
  it('idle', () => {
    render(<View />);
    expect(statusText()).toBe('Ready');
    expect(screen.getByRole('log')).toHaveTextContent('What should Errand do?');
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
  });

  it('thinking, then running a tool: the indicator follows, Stop is offered', () => {
    render(<View />);
    prompt();
    act(() => handleTaskUpdate(task('t', C, { status: 'thinking', stepCount: 1 })));
    expect(statusText()).toBe('Planning…');
    expect(screen.getByRole('status')).toHaveTextContent('Step 1');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    // The person may type while it works: Send queues for the next step.
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();

    msg(
      message('a1', C, {
        taskId: 't',
        step: 1,
        content: 'Searching.',
        toolCalls: [{ id: 'k', name: 'web_search', arguments: '{"q":"Lisbon"}' }],
        seq: 2,
      }),
    );
    act(() =>
      handleTaskUpdate(task('t', C, { status: 'tool_executing', stepCount: 1, currentTool: 'web_search', currentCallId: 'k' })),
    );
    expect(statusText()).toBe('Running web_search…');
    // The indicator is below the last message.
    const status = screen.getByRole('status');
    const last = screen.getByRole('button', { name: /^Running web_search/ });
    expect(last.compareDocumentPosition(status) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // What the command writes shows as it arrives.
    act(() => handleToolOutput({ conversationId: C, taskId: 't', callId: 'k', text: 'fetching…\n' }));
    act(() => handleToolOutput({ conversationId: C, taskId: 't', callId: 'k', text: '3 results' }));
    expect(screen.getByLabelText('Output so far')).toHaveTextContent('fetching… 3 results');
  });

  it('waiting with choices: the question, choice buttons by the input, Reply and Stop', async () => {
    vi.mocked(api.userResponse).mockResolvedValue(undefined);
    render(<View />);
    prompt();
    msg(
      message('a1', C, {
        taskId: 't',
        step: 1,
        toolCalls: [{ id: 'q', name: 'ask_user', arguments: '{"question":"Which city?","choices":["Paris","Rome"]}' }],
        seq: 2,
      }),
    );
    act(() =>
      handleTaskUpdate(
        task('t', C, { status: 'waiting_user', stepCount: 1, pendingQuestion: 'Which city?', pendingChoices: ['Paris', 'Rome'] }),
      ),
    );
    expect(statusText()).toBe('Waiting for your answer');
    expect(screen.getByText('Which city?', { selector: 'p' })).toBeInTheDocument();
    const choices = screen.getByRole('group', { name: 'Suggested answers' });
    expect(within(choices).getAllByRole('button').map((b) => b.textContent)).toEqual(['Paris', 'Rome']);
    expect(screen.getByRole('button', { name: 'Reply' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    await userEvent.click(within(choices).getByRole('button', { name: 'Rome' }));
    expect(api.userResponse).toHaveBeenCalledWith('t', 'Rome');
  });

  it('completed: the Task complete card with the summary, and Send again', () => {
    render(<View />);
    prompt();
    msg(
      message('a1', C, {
        taskId: 't',
        step: 2,
        content: 'All done.',
        toolCalls: [{ id: 'd', name: 'task_complete', arguments: '{"summary":"Booked **two** nights"}' }],
        seq: 2,
      }),
    );
    act(() =>
      handleTaskUpdate(
        task('t', C, {
          status: 'completed',
          stepCount: 2,
          endedAt: '2026-01-01T10:00:12Z',
          usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0 },
        }),
      ),
    );
    expect(statusText()).toBe('Completed');
    expect(screen.getByRole('status')).toHaveTextContent('0:12');
    expect(screen.getByRole('status')).toHaveTextContent('1,000 tokens');
    const card = screen.getByText('Task complete').closest('.card-complete') as HTMLElement;
    expect(card).toHaveTextContent('Booked two nights');
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('completed in words: the reply streamed with [TASK_COMPLETE] becomes the same card, with its files', async () => {
    vi.mocked(api.filesChanged).mockResolvedValueOnce({
      taskId: 't',
      undone: false,
      pruned: false,
      dismissed: false,
      notUndoable: [],
      files: [{ path: 'notes.txt', change: 'created' }],
    });
    render(<View />);
    prompt();
    msg(message('a1', C, { taskId: 't', step: 2, content: 'I wrote notes.txt.\n\n[TASK_COMPLETE]', streaming: true, seq: 2 }));
    // Go stores the reply as the task_complete call it stands for.
    msg(
      message('a1', C, {
        taskId: 't',
        step: 2,
        rev: 2,
        content: '',
        toolCalls: [{ id: 'call_x', name: 'task_complete', arguments: '{"summary":"I wrote notes.txt."}' }],
        seq: 2,
      }),
    );
    msg(message('r1', C, { role: 'tool', taskId: 't', toolCallId: 'call_x', toolName: 'task_complete', content: 'The task is marked complete.', seq: 3 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'completed', stepCount: 2, endedAt: '2026-01-01T10:00:12Z' })));
    const card = screen.getByText('Task complete').closest('.card-complete') as HTMLElement;
    expect(card).toHaveTextContent('I wrote notes.txt.');
    expect(await within(card).findByRole('button', { name: /^Files changed/ })).toHaveTextContent('Files changed (1)');
    expect(screen.queryByText(/TASK_COMPLETE/)).toBeNull();
    expect(screen.getAllByText('I wrote notes.txt.')).toHaveLength(1);
  });

  it('cancelled: a clear system message', () => {
    render(<View />);
    prompt();
    msg(message('s', C, { role: 'system', taskId: 't', content: 'Stopped by user', seq: 3 }));
    act(() => handleTaskUpdate(task('t', C, { status: 'cancelled', stepCount: 1, endedAt: '2026-01-01T10:00:03Z' })));
    expect(statusText()).toBe('Stopped');
    expect(screen.getByText('Stopped by user')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });

  it('error: said once, in words; the transcript row opens to the reason', async () => {
    render(<View />);
    prompt();
    msg(message('s', C, { role: 'system', taskId: 't', content: 'The task failed: the model server is unreachable', isError: true, seq: 3 }));
    act(() =>
      handleTaskUpdate(task('t', C, { status: 'error', stepCount: 1, errorMessage: 'the model server is unreachable' })),
    );
    expect(statusText()).toBe('Failed');
    expect(screen.queryByText(/the model server is unreachable/)).not.toBeInTheDocument();
    const row = screen.getByRole('button', { name: 'The task failed' });
    await userEvent.click(row);
    expect(screen.getByText('The task failed: the model server is unreachable')).toBeInTheDocument();
  });
});

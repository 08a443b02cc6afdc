import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentDefinition, Message } from '../../api/types';
import { useAgentsStore } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { handleTaskMessage, handleTaskUpdate } from '../../stores/sync';
import { message, resetStores, summary, task } from '../../test/fixtures';
import { Composer } from '../chat/Composer';
import { MessageList } from '../chat/MessageList';
import { blankAgent } from './AgentsSection';

const C = 'c1';

function agent(over: Partial<AgentDefinition>): AgentDefinition {
  return { ...blankAgent(), ...over };
}

const EXAM = agent({ id: 'exam', name: 'Exam', mode: 'proactive', showHistory: false, showEndButton: false, canUserType: false });
const TUTOR = agent({ id: 'tutor', name: 'Tutor', mode: 'proactive' });
const CHATTY = agent({ id: 'chatty', name: 'Chatty', mode: 'proactive', typeDuringOpening: true });

function ask(id: string, question: string, seq: number): Message {
  return message(id, C, { content: `Next: ${question}`, seq, taskId: 't', toolCalls: [{ id: `call-${id}`, name: 'ask_user', arguments: JSON.stringify({ question }) }] });
}

function seed(...msgs: Message[]) {
  const s = useMessagesStore.getState();
  s.beginLoad(C);
  s.finishLoad(C, msgs);
}

function useAgent(id: string) {
  useConversationsStore.getState().patch(C, { agentId: id });
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useAgentsStore.getState().set([EXAM, TUTOR, CHATTY]);
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('an agent that hides the history', () => {
  const EXAM_MSGS = () => [
    ask('q1', 'What is 2+2?', 1),
    message('a1', C, { role: 'tool', content: '4', toolCallId: 'call-q1', toolName: 'ask_user', seq: 2, taskId: 't' }),
    ask('q2', 'What is the capital of France?', 3),
  ];

  it('shows only the current question: a new one replaces the old on screen', () => {
    useAgent('exam');
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'exam', originalPrompt: '', pendingQuestion: 'What is 2+2?' }));
    seed(ask('q1', 'What is 2+2?', 1));
    render(<MessageList conversationId={C} />);
    expect(screen.getByText('Next: What is 2+2?')).toBeInTheDocument();
    act(() => {
      handleTaskMessage({ conversationId: C, taskId: 't', message: EXAM_MSGS()[1]! });
      handleTaskMessage({ conversationId: C, taskId: 't', message: EXAM_MSGS()[2]! });
    });
    expect(screen.getByText('Next: What is the capital of France?')).toBeInTheDocument();
    expect(screen.queryByText('Next: What is 2+2?')).not.toBeInTheDocument();
    expect(useMessagesStore.getState().byConversation[C]!.ids).toHaveLength(3);
  });

  it('shows everything for an agent that shows the history, and a hint can hide it per question', () => {
    useAgent('tutor');
    seed(...EXAM_MSGS());
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'tutor', originalPrompt: '' }));
    const { unmount } = render(<MessageList conversationId={C} />);
    expect(screen.getByText('Next: What is 2+2?')).toBeInTheDocument();
    unmount();
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'tutor', originalPrompt: '', rev: 2, input: { show_history: false } }));
    render(<MessageList conversationId={C} />);
    expect(screen.queryByText('Next: What is 2+2?')).not.toBeInTheDocument();
    expect(screen.getByText('Next: What is the capital of France?')).toBeInTheDocument();
  });
});

describe('the End button', () => {
  it('is hidden for an agent that hides it, and a hint shows it again', () => {
    useAgent('exam');
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'exam', pendingQuestion: 'Q' }));
    const { unmount } = render(<Composer conversationId={C} />);
    expect(screen.queryByRole('button', { name: /Stop|End conversation/ })).not.toBeInTheDocument();
    unmount();
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'exam', pendingQuestion: 'Q', rev: 2, input: { show_end_button: true } }));
    render(<Composer conversationId={C} />);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
  });
});

describe('a proactive agent’s opening', () => {
  it('locks the composer until the agent has spoken', () => {
    useAgent('tutor');
    seed();
    handleTaskUpdate(task('t', C, { status: 'running', agentId: 'tutor', originalPrompt: '' }));
    render(<Composer conversationId={C} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toBeDisabled();
    expect(box).toHaveAttribute('placeholder', 'Tutor speaks first…');
    act(() => handleTaskMessage({ conversationId: C, taskId: 't', message: message('hi', C, { content: 'Hello! Let us begin.', seq: 1, taskId: 't' }) }));
    expect(box).toBeEnabled();
  });

  it('leaves it open when the definition says so, and for a task the person started', () => {
    useAgent('chatty');
    seed();
    handleTaskUpdate(task('t', C, { status: 'running', agentId: 'chatty', originalPrompt: '' }));
    const { unmount } = render(<Composer conversationId={C} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
    unmount();
    useAgent('tutor');
    handleTaskUpdate(task('t', C, { status: 'running', agentId: 'tutor', originalPrompt: 'Teach me', rev: 2 }));
    render(<Composer conversationId={C} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });
});

import { isBusy, type AgentDefinition, type InputHint, type Task } from '../../api/types';
import { useConversationAgent } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import type { ConversationMessages } from '../../stores/messagesReducer';
import { messageOf } from '../../stores/messagesReducer';
import { useTasksStore, type TasksStore } from '../../stores/tasks';
import type { TranscriptRows } from '../chat/transcript';

/** What of the window an agent shows: the history before its current question, and the End (Stop) button. */
export interface WindowShape {
  showHistory: boolean;
  showEndButton: boolean;
}

/** The shape the agent asks for: its last question's or update's input hint, else its definition (both shown by default). */
export function windowShape(agent: AgentDefinition | undefined, hint: InputHint | undefined): WindowShape {
  return {
    showHistory: hint?.show_history ?? agent?.showHistory ?? true,
    showEndButton: hint?.show_end_button ?? agent?.showEndButton ?? true,
  };
}

/**
 * Whether the composer is locked for a proactive agent's opening: its first
 * turn (a task with no prompt from the person) runs and it has not spoken
 * yet, unless its definition lets the person type meanwhile.
 */
export function openingLocked(agent: AgentDefinition | undefined, task: Task | undefined, spoken: boolean): boolean {
  if (!agent || agent.mode !== 'proactive' || agent.typeDuringOpening) return false;
  return !!task && isBusy(task.status) && task.originalPrompt === '' && !spoken;
}

/** Whether the task has said something in the conversation: a reply with text or a call (a question, an update). */
export function hasSpoken(conv: ConversationMessages | undefined, taskId: string | undefined): boolean {
  if (!conv || !taskId) return false;
  for (let i = conv.ids.length - 1; i >= 0; i--) {
    const m = messageOf(conv, conv.ids[i]!);
    if (m?.taskId === taskId && m.role === 'assistant' && (m.content.trim() !== '' || (m.toolCalls?.length ?? 0) > 0)) return true;
  }
  return false;
}

/**
 * The rows a person sees when the agent hides the history: from the
 * message that asks the latest question on (a new question replaces the
 * old one); all of them before the first question.
 */
export function currentQuestionRows(rows: TranscriptRows): TranscriptRows {
  const q = rows.kinds.lastIndexOf('question');
  if (q < 0) return rows;
  const from = rows.messageIds.indexOf(rows.messageIds[q]!);
  return { keys: rows.keys.slice(from), kinds: rows.kinds.slice(from), messageIds: rows.messageIds.slice(from) };
}

/** The conversation's running task, else its latest. */
function shownTask(s: TasksStore, conversationId: string): Task | undefined {
  const active = s.activeByConversation[conversationId];
  const latest = s.latestByConversation[conversationId];
  return (active ? s.byId[active] : undefined) ?? (latest ? s.byId[latest] : undefined);
}

/**
 * The window's shape for a conversation: its agent's word, by the running
 * (else latest) task's hint. It follows those values alone, so a task's
 * other updates (its status, each step) do not render its user again.
 */
export function useWindowShape(conversationId: string): WindowShape {
  const showHistory = useTasksStore((s) => shownTask(s, conversationId)?.input?.show_history);
  const showEndButton = useTasksStore((s) => shownTask(s, conversationId)?.input?.show_end_button);
  const taskAgentId = useTasksStore((s) => shownTask(s, conversationId)?.agentId);
  const agentId = useConversationsStore((s) => s.byId[conversationId]?.agentId);
  const agent = useConversationAgent(taskAgentId || agentId);
  return windowShape(agent, { show_history: showHistory, show_end_button: showEndButton });
}

// What the person does with agents in a conversation: choose one, answer
// its widgets.
import * as api from '../../api';
import { toApiError } from '../../api/errors';
import { agentById, trackAgentSwitch, useAgentsStore } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { useDraftsStore } from '../../stores/drafts';
import { useMessagesStore } from '../../stores/messages';
import { reportError } from '../../stores/notices';
import { applyTask } from '../../stores/sync';
import { useTasksStore } from '../../stores/tasks';

/** Whether the conversation has neither messages nor tasks yet. */
function isEmpty(conversationId: string): boolean {
  const msgs = useMessagesStore.getState().byConversation[conversationId];
  const tasks = useTasksStore.getState().latestByConversation[conversationId];
  return (msgs?.ids.length ?? 0) === 0 && !tasks;
}

/**
 * Makes agentId the conversation's agent. A proactive agent chosen for an
 * empty conversation starts at once: it speaks first.
 */
export async function chooseAgent(conversationId: string, agentId: string): Promise<boolean> {
  try {
    const c = await trackAgentSwitch(conversationId, api.setAgent(conversationId, agentId));
    useConversationsStore.getState().upsert(c);
  } catch (err) {
    reportError(err, 'Could not switch the agent');
    return false;
  }
  const agent = agentById(useAgentsStore.getState().list, agentId);
  if (agent?.mode === 'proactive' && isEmpty(conversationId)) return startProactive(conversationId);
  return true;
}

/** Starts the conversation's proactive agent. */
export async function startProactive(conversationId: string): Promise<boolean> {
  try {
    applyTask(await api.startProactive(conversationId), 'snapshot');
    return true;
  } catch (err) {
    reportError(err, 'Could not start the agent');
    return false;
  }
}

/**
 * Answers a widget question (a form's JSON object, several choices' JSON
 * array, or one choice). Resolves to null when it was taken, or to Go's
 * reason for refusing it, shown at the widget.
 */
export async function answerWidget(conversationId: string, taskId: string, answer: string): Promise<string | null> {
  try {
    await api.userResponse(taskId, answer);
    useDraftsStore.getState().setDraft(conversationId, '');
    return null;
  } catch (err) {
    return toApiError(err).message;
  }
}

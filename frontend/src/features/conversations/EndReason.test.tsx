import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useAgentsStore } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskUpdate } from '../../stores/sync';
import { blankAgent } from '../agents/AgentsSection';
import { ChatHeader } from '../chat/ChatHeader';
import { Composer } from '../chat/Composer';

const C = 'c1';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useAgentsStore.getState().set([{ ...blankAgent(), id: 'quiz', name: 'Quiz', builtIn: true, allowEarlyTermination: true }]);
  useConversationsStore.getState().setAll([summary(C, { agentId: 'quiz' })]);
  handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'quiz', pendingQuestion: 'Q' }));
  render(
    <>
      <ChatHeader conversationId={C} />
      <Composer conversationId={C} />
      <ConfirmDialog />
    </>,
  );
});

async function endWith(reason: string) {
  await userEvent.click(screen.getByRole('button', { name: 'End conversation' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'End this conversation?' });
  const field = within(dialog).getByRole('textbox', { name: 'Reason (optional)' });
  await userEvent.type(field, reason);
  await userEvent.click(within(dialog).getByRole('button', { name: 'End conversation' }));
  return { dialog, field };
}

describe('ending a conversation with a reason', () => {
  it('sends the reason the person gives, and the header shows it', async () => {
    vi.mocked(api.endConversation).mockResolvedValue(
      conversation(C, { agentId: 'quiz', state: 'ended', endedBy: 'person', endReason: 'Enough for today' }),
    );
    const { dialog } = await endWith('Enough for today');
    expect(api.endConversation).toHaveBeenCalledWith(C, 'Enough for today');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(screen.getByText('Ended by you', { selector: '.chat-header .state-label' }).parentElement).toHaveTextContent('Ended by you: Enough for today');
  });

  it('a reason Go refuses is shown on its field, and the dialog stays open', async () => {
    vi.mocked(api.endConversation).mockRejectedValue(new ApiError('invalid', 'The reason is 2 KB; the most it can be is 1 KB.', undefined, 'reason'));
    const { dialog, field } = await endWith('far too long');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('The reason is 2 KB; the most it can be is 1 KB.');
    expect(dialog).toBeInTheDocument();
    expect(document.querySelector('.chat-header .state-chip')).toBeNull();
  });
});

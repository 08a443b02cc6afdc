import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { message, resetStores } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import type { Attachment } from '../../api/types';
import { useMessagesStore } from '../../stores/messages';
import { useNoticesStore } from '../../stores/notices';
import { MessageList } from '../chat/MessageList';

const C = 'c1';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const shot: Attachment = {
  id: 'a'.repeat(64),
  name: 'whiteboard.png',
  kind: 'image',
  mime: 'image/png',
  size: 3 << 20,
  width: 4000,
  height: 3000,
};
const notes: Attachment = { id: 'b'.repeat(64), name: 'notes.md', kind: 'text', mime: 'text/markdown', size: 1536 };

function show(...messages: ReturnType<typeof message>[]) {
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, messages);
  render(<MessageList conversationId={C} />);
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.attachmentImage).mockReset();
  vi.mocked(api.openAttachment).mockReset();
});

describe('A sent message with attachments', () => {
  it('shows its image (read from Go) and its file chip with name and size, above its text', async () => {
    vi.mocked(api.attachmentImage).mockResolvedValue(PNG);
    show(message('m1', C, { role: 'user', content: 'What does this say?', attachments: [shot, notes] }));

    const view = screen.getByRole('button', { name: 'View whiteboard.png' });
    expect(await within(view).findByRole('img', { name: 'whiteboard.png' })).toHaveAttribute('src', PNG);
    expect(api.attachmentImage).toHaveBeenCalledWith(shot.id);
    // Its thumbnail keeps the image's shape before it loads: 4:3 at 120 px high.
    expect(view).toHaveStyle({ width: '160px' });
    const file = screen.getByRole('button', { name: /notes\.md/ });
    expect(file).toHaveTextContent('1.5 KB');
    expect(screen.getByText('What does this say?')).toBeInTheDocument();
  });

  it('a click on the image opens a viewer dialog named by the file; Esc closes it', async () => {
    vi.mocked(api.attachmentImage).mockResolvedValue(PNG);
    const user = userEvent.setup();
    show(message('m1', C, { role: 'user', content: '', attachments: [shot] }));
    await user.click(screen.getByRole('button', { name: 'View whiteboard.png' }));

    const dialog = screen.getByRole('dialog', { name: 'whiteboard.png' });
    expect(await within(dialog).findByRole('img', { name: 'whiteboard.png' })).toHaveAttribute('src', PNG);
    expect(dialog).toHaveTextContent('4000×3000 · 3.0 MB');
    // The thumbnail and the viewer share one read.
    expect(api.attachmentImage).toHaveBeenCalledTimes(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'View whiteboard.png' })).toHaveFocus();
  });

  it('a message of files alone shows no empty text and no Copy message', () => {
    vi.mocked(api.attachmentImage).mockResolvedValue(PNG);
    show(message('m1', C, { role: 'user', content: '', attachments: [notes] }));
    expect(screen.getByRole('button', { name: /notes\.md/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy message' })).toBeNull();
  });

  it('a click on a file opens it with the system viewer; a failure is said', async () => {
    vi.mocked(api.openAttachment)
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new ApiError('not_found', 'The file is no longer in the data folder.'));
    const user = userEvent.setup();
    show(message('m1', C, { role: 'user', content: 'see file', attachments: [notes] }));
    const file = screen.getByRole('button', { name: /notes\.md/ });

    await user.click(file);
    expect(api.openAttachment).toHaveBeenCalledWith(notes.id, 'notes.md');
    expect(useNoticesStore.getState().items).toHaveLength(0);

    await user.click(file);
    await waitFor(() => expect(useNoticesStore.getState().items).toHaveLength(1));
    expect(useNoticesStore.getState().items[0]?.message).toBe(
      'Could not open notes.md: The file is no longer in the data folder.',
    );
  });

  it("an image Go cannot read says why in its place", async () => {
    vi.mocked(api.attachmentImage).mockRejectedValue(new ApiError('not_found', 'The attachment is missing.'));
    show(message('m1', C, { role: 'user', content: 'pic', attachments: [shot] }));
    expect(await screen.findByText('Image not shown: The attachment is missing.')).toBeInTheDocument();
  });
});

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStores, summary } from '../../test/fixtures';

import * as api from '../../api';
import * as events from '../../events';
import { ApiError } from '../../api/errors';
import type { Attachment } from '../../api/types';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { ChatView } from '../chat/ChatView';

const C = 'c1';

Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() });

function stored(name: string, over: Partial<Attachment> = {}): Attachment {
  return { id: `sha-${name}`, name, kind: 'text', mime: 'text/plain', size: 11, ...over };
}

/** A drag of files from outside the page, as the browser describes it. */
function filesDrag(files: File[] = []) {
  return { dataTransfer: { types: ['Files'], files, dropEffect: 'none' } };
}

function setup() {
  render(<ChatView conversationId={C} />);
  const chat = screen.getByRole('region', { name: 'Chat' });
  return { chat, transcript: chat.querySelector('.message-scroll') ?? chat };
}

const overlay = () => screen.queryByText('Drop files to attach them to your message');

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.addAttachment).mockReset();
  vi.mocked(api.addAttachmentPath).mockReset();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
  useMessagesStore.getState().beginLoad(C);
  useMessagesStore.getState().finishLoad(C, []);
});

afterEach(() => {
  delete (globalThis as { wails?: unknown }).wails;
});

describe('Dropping files on the chat', () => {
  it('highlights the chat while files are dragged over it, and a drop on the transcript attaches them', async () => {
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('report.txt'));
    const { chat, transcript } = setup();
    expect(overlay()).toBeNull();

    fireEvent.dragEnter(transcript, filesDrag());
    expect(overlay()).toBeInTheDocument();
    expect(chat).toHaveClass('chat-dropping');
    // Moving over a child and back keeps it lit; leaving the chat ends it.
    fireEvent.dragEnter(chat, filesDrag());
    fireEvent.dragLeave(transcript, filesDrag());
    expect(overlay()).toBeInTheDocument();
    fireEvent.dragLeave(chat, filesDrag());
    expect(overlay()).toBeNull();

    fireEvent.dragEnter(transcript, filesDrag());
    const accepted = fireEvent.dragOver(transcript, filesDrag());
    expect(accepted).toBe(false); // preventDefault: the page takes the drop
    const file = new File(['hello world'], 'report.txt', { type: 'text/plain' });
    fireEvent.drop(transcript, filesDrag([file]));
    expect(overlay()).toBeNull();
    await waitFor(() => expect(api.addAttachment).toHaveBeenCalledWith('report.txt', btoa('hello world')));
    const chips = within(screen.getByRole('list', { name: 'Attached files' }));
    expect(await chips.findByText('11 bytes')).toBeInTheDocument();
  });

  it('a drag of text from the page (no files) is left alone', () => {
    const { chat } = setup();
    const taken = fireEvent.dragOver(chat, { dataTransfer: { types: ['text/plain'], files: [] } });
    expect(taken).toBe(true);
    expect(overlay()).toBeNull();
  });

  it('in the desktop window Go takes the dropped paths, and the page reads none of the files itself', async () => {
    (globalThis as { wails?: unknown }).wails = { flags: { enableWailsDragAndDrop: true } };
    vi.mocked(api.addAttachmentPath)
      .mockRejectedValueOnce(new ApiError('invalid', 'pipe is not a regular file.'))
      .mockResolvedValueOnce(stored('diagram.png', { kind: 'image', size: 2048 }));
    vi.mocked(api.attachmentImage).mockResolvedValue('data:image/png;base64,iVBORw0KGgo=');
    const { chat } = setup();

    fireEvent.dragEnter(chat, filesDrag());
    fireEvent.drop(chat, filesDrag([new File(['x'], 'pipe')]));
    expect(overlay()).toBeNull();
    expect(api.addAttachment).not.toHaveBeenCalled();

    // Wails hands the paths of the drop to the listener the chat registered.
    const onDrop = vi.mocked(events.onFileDrop).mock.calls.at(-1)![0];
    act(() => onDrop(['/home/ann/pipe', '/home/ann/Pictures/diagram.png']));
    const chips = within(screen.getByRole('list', { name: 'Attached files' }));
    expect(await chips.findByText(/pipe is not a regular file/)).toBeInTheDocument();
    expect(await chips.findByText('2.0 KB')).toBeInTheDocument();
    expect(api.addAttachmentPath).toHaveBeenNthCalledWith(1, '/home/ann/pipe');
    expect(api.addAttachmentPath).toHaveBeenNthCalledWith(2, '/home/ann/Pictures/diagram.png');
    // A stored image dropped by path gets its thumbnail from Go.
    await waitFor(() => expect(chips.getByText('diagram.png').closest('li')?.querySelector('img')).toBeTruthy());
    expect(api.attachmentImage).toHaveBeenCalledWith('sha-diagram.png');
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, message, resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import type { Attachment } from '../../api/types';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { useNoticesStore } from '../../stores/notices';
import { handleTaskUpdate } from '../../stores/sync';
import { Composer } from '../chat/Composer';

const C = 'c1';

// The thumbnails of local images get these object URLs, counted and checked.
const createObjectURL = vi.fn((_: Blob) => `blob:preview-${createObjectURL.mock.calls.length}`);
const revokeObjectURL = vi.fn((_: string) => {});
Object.assign(URL, { createObjectURL, revokeObjectURL });

function stored(name: string, over: Partial<Attachment> = {}): Attachment {
  return { id: `sha-${name}`, name, kind: 'text', mime: 'text/plain', size: 5, ...over };
}

const png = (name = 'shot.png') => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
const text = (name = 'notes.md', body = 'hello') => new File([body], name, { type: 'text/markdown' });

function setup() {
  const user = userEvent.setup();
  render(<Composer conversationId={C} />);
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  return { user, input, textbox: screen.getByRole('textbox', { name: 'Message' }) };
}

const chips = () => within(screen.getByRole('list', { name: 'Attached files' }));

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.addAttachment).mockReset();
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('Composer attachments', () => {
  it('the paperclip picks files: each is read, handed to Go, pending while it is checked, then a chip with its size', async () => {
    const check = deferred<Attachment>();
    vi.mocked(api.addAttachment).mockReturnValueOnce(check.promise);
    const { user, input } = setup();
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeEnabled();
    expect(input).toHaveAttribute('multiple');

    await user.upload(input, text('notes.md', 'hello'));
    await waitFor(() => expect(api.addAttachment).toHaveBeenCalledWith('notes.md', btoa('hello')));
    expect(chips().getByText('Checking…')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    check.resolve(stored('notes.md', { size: 2048 }));
    expect(await chips().findByText('2.0 KB')).toBeInTheDocument();
    expect(chips().getByText('notes.md')).toBeInTheDocument();
    expect(screen.queryByText('Checking…')).toBeNull();
    // A message may be files alone.
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  it('an image gets a thumbnail from the local file, revoked when its chip is removed', async () => {
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('shot.png', { kind: 'image', mime: 'image/png' }));
    const { user, input } = setup();
    await user.upload(input, png());
    await chips().findByText('5 bytes');
    const thumb = chips().getByRole('listitem').querySelector('img');
    expect(thumb).toHaveAttribute('src', 'blob:preview-1');

    await user.click(screen.getByRole('button', { name: 'Remove shot.png' }));
    expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
  });

  it("a refused file says Go's reason and does not stop the others", async () => {
    vi.mocked(api.addAttachment)
      .mockRejectedValueOnce(new ApiError('invalid', 'fake.png says it is an image but is not one.'))
      .mockResolvedValueOnce(stored('notes.md'));
    const { user, input } = setup();
    await user.upload(input, [png('fake.png'), text()]);

    expect(await chips().findByText(/fake\.png says it is an image but is not one/)).toHaveAttribute('role', 'alert');
    expect(await chips().findByText('5 bytes')).toBeInTheDocument();
    expect(api.addAttachment).toHaveBeenCalledTimes(2);
    // The refused one can be dismissed like any chip.
    await user.click(screen.getByRole('button', { name: 'Remove fake.png' }));
    expect(chips().getAllByRole('listitem')).toHaveLength(1);
  });

  it('says the limits at once: a file over 20 MB is not read, and an 11th file is not added', async () => {
    vi.mocked(api.addAttachment).mockImplementation(async (name) => stored(name));
    const { user, input } = setup();
    const huge = text('video.mov');
    Object.defineProperty(huge, 'size', { value: 2 * 1024 ** 3 });
    await user.upload(input, huge);
    expect(chips().getByText(/It is 2\.0 GB; a file may be at most 20 MB/)).toBeInTheDocument();
    expect(api.addAttachment).not.toHaveBeenCalled();

    const many = Array.from({ length: 11 }, (_, i) => text(`f${i}.txt`));
    await user.upload(input, many);
    expect(screen.getByText('A message takes at most 10 files; not added: f10.txt.')).toHaveAttribute('role', 'alert');
    // Ten files are read and checked one after another: on a busy machine that is slow, never wrong.
    const allChecked = { timeout: 30_000 };
    await waitFor(() => expect(chips().queryByText('Checking…')).toBeNull(), allChecked);
    expect(api.addAttachment).toHaveBeenCalledTimes(10);
    expect(api.addAttachment).not.toHaveBeenCalledWith('f10.txt', expect.anything());
  });

  it('a pasted image becomes a chip; pasted text stays text', async () => {
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('image.png', { kind: 'image' }));
    const { textbox } = setup();
    const image = png('image.png');
    const notCancelled = fireEvent.paste(textbox, { clipboardData: { files: [image], types: ['Files'] } });
    expect(notCancelled).toBe(false);
    expect(await chips().findByText('image.png')).toBeInTheDocument();
    await waitFor(() => expect(api.addAttachment).toHaveBeenCalledWith('image.png', expect.any(String)));

    const plain = fireEvent.paste(textbox, { clipboardData: { files: [], types: ['text/plain'] } });
    expect(plain).toBe(true);
    expect(api.addAttachment).toHaveBeenCalledTimes(1);
  });

  it('Send passes the ids of the accepted files and clears the chips', async () => {
    vi.mocked(api.addAttachment)
      .mockResolvedValueOnce(stored('a.png', { kind: 'image', id: 'aaa' }))
      .mockResolvedValueOnce(stored('b.txt', { id: 'bbb' }));
    vi.mocked(api.send).mockResolvedValue(task('t1', C, { status: 'running' }));
    const { user, input, textbox } = setup();
    await user.upload(input, [png('a.png'), text('b.txt')]);
    await waitFor(() => expect(chips().queryByText('Checking…')).toBeNull());

    await user.type(textbox, 'What is in these?{Enter}');
    expect(api.send).toHaveBeenCalledWith(C, 'What is in these?', ['aaa', 'bbb']);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull());
    expect(textbox).toHaveValue('');
  });

  it('files alone are a message: Send with no text', async () => {
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('a.png', { kind: 'image', id: 'aaa' }));
    vi.mocked(api.send).mockResolvedValue(task('t1', C, { status: 'running' }));
    const { user, input } = setup();
    await user.upload(input, png('a.png'));
    await chips().findByText('5 bytes');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(api.send).toHaveBeenCalledWith(C, '', ['aaa']);
  });

  it('a failed send keeps the text and the chips', async () => {
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('b.txt', { id: 'bbb' }));
    vi.mocked(api.send).mockRejectedValue(new ApiError('model', 'The model server did not answer.'));
    const { user, input, textbox } = setup();
    await user.upload(input, text('b.txt'));
    await chips().findByText('5 bytes');
    await user.type(textbox, 'Read this{Enter}');
    await waitFor(() => expect(useNoticesStore.getState().items).toHaveLength(1));
    expect(textbox).toHaveValue('Read this');
    expect(chips().getByText('b.txt')).toBeInTheDocument();
    expect(revokeObjectURL).not.toHaveBeenCalled();
  });

  it('while the agent works, a queued message carries its files', async () => {
    handleTaskUpdate(task('t1', C, { status: 'tool_executing', stepCount: 2 }));
    useMessagesStore.getState().beginLoad(C);
    useMessagesStore.getState().finishLoad(C, []);
    vi.mocked(api.addAttachment).mockResolvedValueOnce(stored('b.txt', { id: 'bbb' }));
    vi.mocked(api.queueMessage).mockResolvedValue(message('q1', C, { role: 'user', delivery: 'queued', taskId: 't1' }));
    const { user, input, textbox } = setup();
    await user.upload(input, text('b.txt'));
    await chips().findByText('5 bytes');
    await user.type(textbox, 'Also this file{Enter}');
    expect(api.queueMessage).toHaveBeenCalledWith(C, 'Also this file', ['bbb']);
    expect(api.send).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull());
  });
});

// What the person does with files in the composer: add them (picked,
// pasted, dropped as File objects or, in the desktop window, as paths),
// remove them, and send the accepted ones with a message. Go checks and
// stores each file; the window only says the limits at once, before it
// reads a file that could never be accepted.
import * as api from '../api';
import { toApiError } from '../api/errors';
import type { Attachment } from '../api/types';
import { formatBytes } from '../lib/bytes';
import { useComposerFiles, type ComposerFile } from './composerFiles';
import { reportError } from './notices';

/** The most one file may weigh, and the most files one message takes: Go's chat.MaxAttachmentBytes and MaxAttachments. */
export const MAX_FILE_BYTES = 20 << 20;
export const MAX_FILES = 10;

let nextKey = 0;
const newKey = () => `file-${++nextKey}`;

/** A file's content in base64, read without the data: URL's prefix. */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('It could not be read (a folder, or a file that is gone?).'));
    reader.readAsDataURL(file);
  });
}

function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** How many more files the composer takes, and the note for those left out. */
function roomFor<T>(conversationId: string, items: T[], nameOf: (t: T) => string): T[] {
  const files = useComposerFiles.getState().byConversation[conversationId] ?? [];
  const room = Math.max(0, MAX_FILES - files.filter((f) => f.state !== 'refused').length);
  const left = items.slice(room);
  useComposerFiles
    .getState()
    .setLimitNote(
      conversationId,
      left.length === 0 ? '' : `A message takes at most ${MAX_FILES} files; not added: ${left.map(nameOf).join(', ')}.`,
    );
  return items.slice(0, room);
}

/** Adds files the window holds (picked, pasted, dropped): each checked by Go in turn. */
export async function addFiles(conversationId: string, files: File[]): Promise<void> {
  const store = useComposerFiles.getState();
  const chips = roomFor(conversationId, files, (f) => f.name).map((file) => {
    const chip: ComposerFile = { key: newKey(), name: file.name, size: file.size, state: 'checking' };
    if (file.size > MAX_FILE_BYTES) {
      chip.state = 'refused';
      chip.error = `It is ${formatBytes(file.size)}; a file may be at most ${MAX_FILE_BYTES >> 20} MB.`;
    } else if (file.type.startsWith('image/')) {
      chip.preview = URL.createObjectURL(file);
    }
    return { chip, file };
  });
  store.add(
    conversationId,
    chips.map((c) => c.chip),
  );
  for (const { chip, file } of chips) {
    if (chip.state !== 'checking') continue;
    await check(conversationId, chip.key, async () => api.addAttachment(file.name, await readBase64(file)));
  }
}

/** Adds files dropped on the desktop window, by path: Go reads and checks each. */
export async function addPaths(conversationId: string, paths: string[]): Promise<void> {
  const chips = roomFor(conversationId, paths, baseName).map(
    (path): ComposerFile & { path: string } => ({ key: newKey(), name: baseName(path), size: 0, state: 'checking', path }),
  );
  useComposerFiles.getState().add(conversationId, chips);
  for (const chip of chips) await check(conversationId, chip.key, () => api.addAttachmentPath(chip.path));
}

async function check(conversationId: string, key: string, store: () => Promise<Attachment>) {
  const update = useComposerFiles.getState().update;
  try {
    const attachment = await store();
    update(conversationId, key, { state: 'ready', attachment, name: attachment.name, size: attachment.size });
  } catch (err) {
    update(conversationId, key, { state: 'refused', error: toApiError(err).message });
  }
}

export function removeFile(conversationId: string, key: string): void {
  useComposerFiles.getState().remove(conversationId, [key]);
}

/** The ids of the accepted files, in the order they were added. */
export function readyIds(conversationId: string): string[] {
  const files = useComposerFiles.getState().byConversation[conversationId] ?? [];
  return files.flatMap((f) => (f.state === 'ready' && f.attachment ? [f.attachment.id] : []));
}

/** After a send: the files that went with it leave the composer (and the refused ones, already said). */
export function clearSentFiles(conversationId: string): void {
  const files = useComposerFiles.getState().byConversation[conversationId] ?? [];
  useComposerFiles.getState().remove(
    conversationId,
    files.filter((f) => f.state !== 'checking').map((f) => f.key),
  );
}

/** Opens a sent file with the system's viewer. */
export async function openAttachment(a: Attachment): Promise<boolean> {
  try {
    await api.openAttachment(a.id, a.name);
    return true;
  } catch (err) {
    reportError(err, `Could not open ${a.name}`);
    return false;
  }
}

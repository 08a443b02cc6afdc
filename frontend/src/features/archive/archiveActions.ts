// Export, import, backup and restore: each asks Go (which shows the native
// dialog), then says what happened. Cancelling a dialog says nothing.
import * as api from '../../api';
import type { ExportFormat } from '../../api';
import { selectConversation } from '../../stores/actions';
import { useConversationsStore } from '../../stores/conversations';
import { reportError, reportInfo } from '../../stores/notices';

export async function exportConversation(id: string, format: ExportFormat): Promise<void> {
  try {
    const path = await api.exportConversation(id, format);
    if (path) reportInfo(`Exported to ${path}`);
  } catch (err) {
    reportError(err, 'Could not export the conversation');
  }
}

/** Imports conversations from a file and opens the first. */
export async function importConversations(): Promise<void> {
  try {
    const convs = await api.importConversations();
    if (convs.length === 0) return;
    for (const c of convs) useConversationsStore.getState().upsert(c);
    reportInfo(convs.length === 1 ? 'Imported 1 conversation' : `Imported ${convs.length} conversations`);
    await selectConversation(convs[0]!.id);
  } catch (err) {
    reportError(err, 'Could not import');
  }
}

export async function exportBackup(): Promise<void> {
  try {
    const path = await api.exportBackup();
    if (path) reportInfo(`Backed up to ${path}`);
  } catch (err) {
    reportError(err, 'Could not back up');
  }
}

export async function restoreBackup(): Promise<void> {
  try {
    const dir = await api.restoreBackup();
    if (dir) reportInfo(`Restored into ${dir}. Start Errand with ERRAND_DATA_DIR=${dir} to use it.`);
  } catch (err) {
    reportError(err, 'Could not restore the backup');
  }
}

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, resetStores, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { useConversationsStore } from '../../stores/conversations';
import { useNoticesStore } from '../../stores/notices';
import { ExportMenu } from './ExportMenu';
import { ImportButton } from './ImportButton';

const notices = () => useNoticesStore.getState().items.map((n) => `${n.kind}: ${n.message}`);

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

describe('export and import', () => {
  it('Export offers Markdown and JSON and says where the file went; a cancelled dialog says nothing', async () => {
    vi.mocked(api.exportConversation).mockResolvedValueOnce('/home/me/trip.md').mockResolvedValueOnce('');
    render(<ExportMenu conversationId="c1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    expect(screen.getByRole('menuitem', { name: /^Markdown/ })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(notices()).toEqual(['info: Exported to /home/me/trip.md']));
    expect(api.exportConversation).toHaveBeenCalledWith('c1', 'markdown');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export' })).toHaveFocus();

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(api.exportConversation).toHaveBeenLastCalledWith('c1', 'json'));
    expect(notices()).toHaveLength(1);
  });

  it('Import opens the imported conversation; a refused file is an error and changes nothing', async () => {
    vi.mocked(api.importConversations)
      .mockRejectedValueOnce(new ApiError('invalid', 'this file was written by a newer version of Errand'))
      .mockResolvedValueOnce([conversation('new1', { title: 'Trip' })]);
    vi.mocked(api.loadConversation).mockImplementation(async (id) => ({ ...NOTHING_USED, conversation: conversation(id, { title: 'Trip' }), messages: [], tasks: [] }));
    render(<ImportButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(notices()).toEqual(['error: Could not import: this file was written by a newer version of Errand']));
    expect(useConversationsStore.getState().selectedId).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(useConversationsStore.getState().selectedId).toBe('new1'));
    expect(useConversationsStore.getState().byId.new1?.title).toBe('Trip');
    expect(notices()).toContain('info: Imported 1 conversation');
  });
});

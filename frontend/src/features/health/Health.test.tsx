import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { conversation, resetStores, summary, modelInfo, NOTHING_USED } from '../../test/fixtures';

import * as api from '../../api';
import { App } from '../../App';
import { useAppStore } from '../../stores/app';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.setViewing).mockResolvedValue(undefined);
  vi.mocked(api.getSettings).mockResolvedValue({ showThinking: true } as Awaited<ReturnType<typeof api.getSettings>>);
    vi.mocked(api.modelInfo).mockResolvedValue(modelInfo({ model: 'gpt-test', baseUrl: 'http://x', demo: false }));
  vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [summary('a')], nextCursor: '' });
  vi.mocked(api.loadConversation).mockResolvedValue({ ...NOTHING_USED, conversation: conversation('a'), messages: [], tasks: [] });
  vi.mocked(api.workspaceDir).mockResolvedValue('/data/workspaces/a');
});

describe('Health', () => {
  it('when Errand cannot start: a full-window error with the reason and the data folder, and no other calls', async () => {
    vi.mocked(api.healthStatus).mockResolvedValue({
      ready: false,
      readOnly: false,
      message: 'Another Errand is already using /data/errand.',
      dataDir: '/data/errand',
    });
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Errand cannot start' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Another Errand is already using /data/errand.');
    expect(screen.getByText('/data/errand')).toBeInTheDocument();
    // Nothing else is shown or asked.
    expect(screen.queryByRole('complementary', { name: 'Conversations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    // Startup has run to its end (the unavailable branch), so a later call
    // could no longer come from it.
    await waitFor(() => expect(useAppStore.getState().startup).toBe('unavailable'));
    expect(api.healthStatus).toHaveBeenCalledTimes(1);
    expect(api.modelInfo).not.toHaveBeenCalled();
    expect(api.listConversationsPage).not.toHaveBeenCalled();
    expect(api.loadConversation).not.toHaveBeenCalled();
  });

  it('read-only: a persistent banner, and the app works for reading', async () => {
    vi.mocked(api.healthStatus).mockResolvedValue({
      ready: true,
      readOnly: true,
      message: 'The database at /data/errand.db is read-only: you can read everything, but nothing new can be saved.',
      dataDir: '/data',
    });
    render(<App />);
    const banner = await screen.findByRole('note', { name: 'Read-only' });
    expect(banner).toHaveTextContent('Read-only: you can read everything, nothing new can be saved.');
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalledWith('a'));
    expect(screen.getByRole('note', { name: 'Read-only' })).toBeInTheDocument();
  });

  it('ready: no banner; Health is asked before anything else', async () => {
    const order: string[] = [];
    vi.mocked(api.healthStatus).mockImplementation(async () => {
      order.push('health');
      return { ready: true, readOnly: false, dataDir: '/data' };
    });
    vi.mocked(api.listConversationsPage).mockImplementation(async () => {
      order.push('list');
      return { items: [summary('a')], nextCursor: '' };
    });
    vi.mocked(api.modelInfo).mockImplementation(async () => {
      order.push('model');
      return modelInfo({ model: 'gpt-test', baseUrl: '', demo: false });
    });
    render(<App />);
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalledWith('a'));
    expect(order[0]).toBe('health');
    expect(screen.queryByRole('note', { name: 'Read-only' })).not.toBeInTheDocument();
  });

  it('if Health itself cannot be asked, startup goes on as before', async () => {
    vi.mocked(api.healthStatus).mockRejectedValue(new Error('no Health service'));
    render(<App />);
    await waitFor(() => expect(api.loadConversation).toHaveBeenCalledWith('a'));
  });
});

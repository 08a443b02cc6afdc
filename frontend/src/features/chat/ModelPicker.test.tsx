import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { Notices } from '../../components/Notices';
import { useAppStore } from '../../stores/app';
import { useConversationsStore } from '../../stores/conversations';
import { useSettingsView } from '../../stores/settingsView';
import { conversation, resetStores, modelInfo } from '../../test/fixtures';
import { ChatHeader, DemoBanner } from './ChatHeader';

const INFO = { model: 'mock-model', baseUrl: 'http://127.0.0.1:5000/v1', demo: false, source: 'settings', preset: 'custom' };

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.currentModels).mockResolvedValue(['mock-large', 'mock-model']);
  useConversationsStore.getState().upsert(conversation('c1', { title: 'Plan' }));
});

describe('the model for this conversation', () => {
  it("lists the provider's models under the default; choosing one calls SetModel, Default calls it with ''", async () => {
    useAppStore.getState().setModelInfo(INFO);
    vi.mocked(api.setModel).mockImplementation(async (id, model) => conversation(id, { title: 'Plan', model }));
    const user = userEvent.setup();
    render(<ChatHeader conversationId="c1" />);
    const picker = screen.getByRole('combobox', { name: 'Model for this conversation' });
    expect(picker).toHaveDisplayValue('Default · mock-model');
    await waitFor(() =>
      expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual([
        'Default · mock-model',
        'mock-large',
        'mock-model',
      ]),
    );
    expect(api.currentModels).toHaveBeenCalledTimes(1);

    await user.selectOptions(picker, 'mock-large');
    expect(api.setModel).toHaveBeenCalledWith('c1', 'mock-large');
    await waitFor(() => expect(picker).toHaveDisplayValue('mock-large'));
    expect(useConversationsStore.getState().byId.c1?.model).toBe('mock-large');

    await user.selectOptions(picker, '');
    expect(api.setModel).toHaveBeenLastCalledWith('c1', '');
    await waitFor(() => expect(picker).toHaveDisplayValue('Default · mock-model'));
  });

  it('shows the chosen model, as wide as its name, before and after the list comes', async () => {
    useAppStore.getState().setModelInfo(INFO);
    vi.mocked(api.currentModels).mockResolvedValue(['a-provider/a-much-longer-model-name-than-the-default']);
    vi.mocked(api.setModel).mockImplementation(async (id, model) => conversation(id, { title: 'Plan', model }));
    const { container } = render(<ChatHeader conversationId="c1" />);
    // The select is unseen over this label (a select is as wide as its widest option).
    const shown = () => container.querySelector('.model-picker-label')?.textContent;
    const picker = screen.getByRole('combobox', { name: 'Model for this conversation' });
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toContain('Loading the models…');
    expect(shown()).toBe('Default · mock-model');
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(2));
    expect(shown()).toBe('Default · mock-model');
    await userEvent.setup().selectOptions(picker, 'a-provider/a-much-longer-model-name-than-the-default');
    await waitFor(() => expect(shown()).toBe('a-provider/a-much-longer-model-name-than-the-default'));
  });

  it("keeps a conversation's model the server does not list, and says so", async () => {
    useAppStore.getState().setModelInfo(INFO);
    useConversationsStore.getState().upsert(conversation('c1', { title: 'Plan', model: 'old-model' }));
    render(<ChatHeader conversationId="c1" />);
    const picker = screen.getByRole('combobox', { name: 'Model for this conversation' });
    expect(picker).toHaveDisplayValue('old-model (not listed by the server)');
  });

  it('puts the choice back and says why when Go refuses', async () => {
    useAppStore.getState().setModelInfo(INFO);
    vi.mocked(api.setModel).mockRejectedValue(new ApiError('not_found', 'no conversation c1'));
    const user = userEvent.setup();
    render(
      <>
        <ChatHeader conversationId="c1" />
        <Notices />
      </>,
    );
    const picker = screen.getByRole('combobox', { name: 'Model for this conversation' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(picker, 'mock-large');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not change the model: no conversation c1');
    expect(picker).toHaveDisplayValue('Default · mock-model');
  });

  it('still offers the default when the list cannot be read', async () => {
    useAppStore.getState().setModelInfo(INFO);
    vi.mocked(api.currentModels).mockRejectedValue(new ApiError('model', 'connection refused'));
    render(<ChatHeader conversationId="c1" />);
    const picker = screen.getByRole('combobox', { name: 'Model for this conversation' });
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Could not list the models' })).toBeDisabled());
    expect(picker).toHaveDisplayValue('Default · mock-model');
  });

  it('with the demo model there is nothing to pick: the label opens the provider settings', async () => {
    useAppStore.getState().setModelInfo({ model: 'errand-demo', baseUrl: 'http://127.0.0.1:1/v1', demo: true, source: 'demo', preset: 'demo' });
    const user = userEvent.setup();
    render(<ChatHeader conversationId="c1" />);
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Demo model' }));
    expect(useSettingsView.getState()).toMatchObject({ open: true, section: 'provider' });
    expect(api.currentModels).not.toHaveBeenCalled();
  });
});

describe('the first-run banner', () => {
  it('shows with the demo model only, and offers to connect a model', async () => {
    useAppStore.getState().setModelInfo(modelInfo({ model: 'errand-demo', baseUrl: '', demo: true, source: 'demo' }));
    const user = userEvent.setup();
    const { rerender } = render(<DemoBanner />);
    const banner = screen.getByRole('note', { name: 'Demo model' });
    expect(banner).toHaveTextContent('You are trying Errand with its demo model');
    await user.click(within(banner).getByRole('button', { name: 'Connect a model' }));
    expect(useSettingsView.getState()).toMatchObject({ open: true, section: 'provider' });

    useAppStore.getState().setModelInfo(INFO);
    rerender(<DemoBanner />);
    expect(screen.queryByRole('note', { name: 'Demo model' })).not.toBeInTheDocument();
  });
});

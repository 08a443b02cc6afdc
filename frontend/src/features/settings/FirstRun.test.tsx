// First run: nothing configured, so the demo model answers and a banner
// offers to connect a real one; connecting it in Settings updates the
// header and the banner without a restart.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it, vi } from 'vitest';
import type { ConversationView } from '../../api/types';
import { conversation, resetStores, summary } from '../../test/fixtures';
import { PRESETS, providerView } from '../../test/providers';

vi.mock('../../api', () => ({
  setViewing: vi.fn(async () => {}),
  // Settings → MCP servers lists the servers.
  listMCPServers: vi.fn(async () => []),
  // Settings → Agents and the start list the agents.
  listAgents: vi.fn(async () => []),
  // Settings → Memory lists the facts.
  listFacts: vi.fn(async () => []),
  healthStatus: vi.fn(),
  modelInfo: vi.fn(),
  currentModels: vi.fn(),
  setModel: vi.fn(),
  listConversationsPage: vi.fn(),
  createConversation: vi.fn(),
  loadConversation: vi.fn(),
  workspaceDir: vi.fn(),
  workspace: vi.fn(),
  getSettings: vi.fn(),
  saveSettings: vi.fn(),
  defaultSystemPrompt: vi.fn(),
  getProvider: vi.fn(),
  providerPresets: vi.fn(),
  detectProviders: vi.fn(),
  saveProvider: vi.fn(),
  testConnection: vi.fn(),
  listModels: vi.fn(),
}));

import * as api from '../../api';
import { App } from '../../App';

const DEMO = { model: 'errand-demo', baseUrl: 'http://127.0.0.1:40000/v1', demo: true, source: 'demo', preset: 'demo' };
const REAL = { model: 'mock-large', baseUrl: 'http://127.0.0.1:5000/v1', demo: false, source: 'settings', preset: 'custom' };

function view(id: string): ConversationView {
  return { conversation: conversation(id, { title: 'First' }), messages: [], tasks: [] };
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.healthStatus).mockResolvedValue({ ready: true, readOnly: false, dataDir: '/tmp/x' });
  vi.mocked(api.modelInfo).mockResolvedValue(DEMO);
  vi.mocked(api.listConversationsPage).mockResolvedValue({ items: [summary('a', { title: 'First' })], nextCursor: '' });
  vi.mocked(api.loadConversation).mockResolvedValue(view('a'));
  vi.mocked(api.workspace).mockResolvedValue({ path: '/tmp/x/workspaces/a', default: true, missing: false });
  vi.mocked(api.getSettings).mockResolvedValue({
    autoApprove: {},
    limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 1 },
    stepDelayMs: 0,
    prices: {},
    contextLengths: {},
    systemPrompt: '',
    provider: { preset: '', baseUrl: '', model: '' },
  });
  vi.mocked(api.defaultSystemPrompt).mockResolvedValue('Built in.');
  vi.mocked(api.getProvider).mockResolvedValue(providerView({ keyStorage: 'file', keyNote: 'No system keyring is available, so API keys are kept in /tmp/x/secrets.json, readable only by you.' }));
  vi.mocked(api.providerPresets).mockResolvedValue(PRESETS);
  vi.mocked(api.detectProviders).mockResolvedValue([]);
  vi.mocked(api.listModels).mockResolvedValue([]);
  vi.mocked(api.currentModels).mockResolvedValue(['mock-large', 'mock-model']);
});

it('the demo banner opens Settings at the provider; saving a provider replaces the banner with the model', async () => {
  const user = userEvent.setup();
  render(<App />);
  const banner = await screen.findByRole('note', { name: 'Demo model' });
  expect(screen.getByRole('button', { name: 'Demo model' })).toBeInTheDocument();

  await user.click(within(banner).getByRole('button', { name: 'Connect a model' }));
  const dialog = await screen.findByRole('dialog', { name: 'Settings' });
  const section = within(dialog).getByRole('group', { name: 'Model provider' });
  // The provider choice has the focus, on what answers now.
  const demo = await within(section).findByRole('radio', { name: 'Offline demo model' });
  await waitFor(() => expect(demo).toHaveFocus());
  expect(demo).toBeChecked();

  await user.click(within(section).getByRole('radio', { name: 'Custom' }));
  await user.type(within(section).getByLabelText('Base URL'), 'http://127.0.0.1:5000/v1');
  await user.type(within(section).getByLabelText('API key'), 'sk-e2e-secret');
  expect(within(section).getByText(/readable only by you/)).toBeInTheDocument();
  vi.mocked(api.testConnection).mockResolvedValue({
    ok: true,
    kind: 'ok',
    message: 'Connected: 2 models available',
    modelCount: 2,
    models: ['mock-large', 'mock-model'],
  });
  await user.click(within(section).getByRole('button', { name: 'Test connection' }));
  expect(await within(section).findByTestId('verdict')).toHaveTextContent('2 models available');
  await user.click(within(section).getByRole('combobox', { name: 'Model' }));
  await user.keyboard('{ArrowDown}');
  await user.click(within(section).getByRole('option', { name: 'mock-large' }));

  vi.mocked(api.saveProvider).mockResolvedValue(
    providerView({ preset: 'custom', baseUrl: 'http://127.0.0.1:5000/v1', model: 'mock-large', hasKey: true }),
  );
  vi.mocked(api.modelInfo).mockResolvedValue(REAL);
  await user.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('button', { name: 'Save' }));
  expect(api.saveProvider).toHaveBeenCalledWith({
    preset: 'custom',
    baseUrl: 'http://127.0.0.1:5000/v1',
    model: 'mock-large',
    apiKey: 'sk-e2e-secret',
    keepKey: false,
  });

  // No restart: the banner goes, the header names the model.
  await waitFor(() => expect(screen.queryByRole('note', { name: 'Demo model' })).not.toBeInTheDocument());
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  const picker = await screen.findByRole('combobox', { name: 'Model for this conversation' });
  expect(picker).toHaveDisplayValue('Default · mock-large');
  await waitFor(() =>
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Default · mock-large',
      'mock-large',
      'mock-model',
    ]),
  );
  // The banner's button is gone: the focus goes back to the gear.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Settings' })).toHaveFocus());
});

it('the demo banner can be dismissed, for good; the header still says Demo model', async () => {
  localStorage.removeItem('errand.demoBannerDismissed');
  const user = userEvent.setup();
  const { unmount } = render(<App />);
  const banner = await screen.findByRole('note', { name: 'Demo model' });
  await user.click(within(banner).getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByRole('note', { name: 'Demo model' })).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Demo model' })).toBeInTheDocument();
  unmount();
  render(<App />);
  await screen.findByRole('button', { name: 'Demo model' });
  expect(screen.queryByRole('note', { name: 'Demo model' })).not.toBeInTheDocument();
  localStorage.removeItem('errand.demoBannerDismissed');
});

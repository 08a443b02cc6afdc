import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderInput, ProviderView, Settings, Verdict } from '../../api/types';
import { useAppStore } from '../../stores/app';
import { resetStores, modelInfo, settings } from '../../test/fixtures';
import { FILE_NOTE, KEYRING_NOTE, PRESETS, providerView } from '../../test/providers';
import { mockClipboard } from '../../test/clipboard';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { SettingsButton } from './SettingsButton';
import {
  connectionKey,
  formFromView,
  inputFromForm,
  keyState,
  providerChanged,
  switchPreset,
  type ProviderForm,
} from './providerForm';

const SETTINGS: Settings = settings({
  autoApprove: { read_only: true },
  limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 1 },
  stepDelayMs: 0,
  prices: {},
  contextLengths: {},
  systemPrompt: '',
  provider: { preset: '', baseUrl: '', model: '' },
});

const STORED_CUSTOM = providerView({
  preset: 'custom',
  baseUrl: 'http://127.0.0.1:9000/v1',
  model: 'big-model',
  hasKey: true,
});

function ok(models: string[]): Verdict {
  return { ok: true, kind: 'ok', message: `Connected: ${models.length} models available`, modelCount: models.length, models };
}

async function open(view: ProviderView = providerView()) {
  vi.mocked(api.getProvider).mockResolvedValue(view);
  const user = userEvent.setup();
  render(<SettingsButton />);
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const dialog = screen.getByRole('dialog', { name: 'Settings' });
  const section = await within(dialog).findByRole('group', { name: 'Model provider' });
  await within(section).findByRole('radiogroup', { name: 'Provider' });
  return { user, dialog, section };
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.getSettings).mockResolvedValue(SETTINGS);
  vi.mocked(api.defaultSystemPrompt).mockResolvedValue('Built-in instructions.');
  vi.mocked(api.providerPresets).mockResolvedValue(PRESETS);
  vi.mocked(api.detectProviders).mockResolvedValue([]);
  vi.mocked(api.listModels).mockResolvedValue([]);
  vi.mocked(api.modelInfo).mockResolvedValue(modelInfo({ model: 'x', baseUrl: 'http://x/v1', demo: false, source: 'settings' }));
  vi.mocked(api.currentModels).mockResolvedValue([]);
});

describe('Provider section', () => {
  it('starts on the demo model when nothing is configured; a preset fills its address and first model', async () => {
    const { user, section } = await open();
    const group = within(section).getByRole('radiogroup', { name: 'Provider' });
    const names = within(group)
      .getAllByRole('radio')
      .map((r) => r.getAttribute('value'));
    expect(names).toEqual(['openai', 'anthropic', 'ollama', 'lmstudio', 'openrouter', 'custom', 'demo']);
    expect(within(group).getByRole('radio', { name: 'Offline demo model' })).toBeChecked();
    // The demo needs nothing: no address, key or model; no test.
    expect(within(section).queryByLabelText('Base URL')).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Test connection' })).not.toBeInTheDocument();

    await user.click(within(group).getByRole('radio', { name: 'Ollama' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('http://localhost:11434/v1');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveValue('');

    await user.click(within(group).getByRole('radio', { name: 'OpenRouter' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('https://openrouter.ai/api/v1');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveValue('openai/gpt-4o-mini');

    await user.click(within(group).getByRole('radio', { name: 'LM Studio' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('http://localhost:1234/v1');

    await user.click(within(group).getByRole('radio', { name: 'Custom' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('');

    await user.click(within(group).getByRole('radio', { name: 'OpenAI' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('https://api.openai.com/v1');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveValue('gpt-4o-mini');

    await user.click(within(group).getByRole('radio', { name: 'Anthropic' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('https://api.anthropic.com');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveValue('claude-sonnet-4-6');
  });

  it('marks the local servers that are running', async () => {
    vi.mocked(api.detectProviders).mockResolvedValue(PRESETS.filter((p) => p.id === 'ollama'));
    const { section } = await open();
    const ollama = within(section).getByRole('radio', { name: 'Ollama' });
    await waitFor(() => expect(ollama).toHaveAccessibleDescription(/running now/));
    expect(within(section).getByRole('radio', { name: 'LM Studio' })).not.toHaveAccessibleDescription(/running/);
  });

  it('shows the stored provider, and comes back to it after trying another preset', async () => {
    const { user, section } = await open(STORED_CUSTOM);
    expect(within(section).getByRole('radio', { name: 'Custom' })).toBeChecked();
    expect(within(section).getByLabelText('Base URL')).toHaveValue('http://127.0.0.1:9000/v1');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveValue('big-model');
    await user.click(within(section).getByRole('radio', { name: 'OpenAI' }));
    expect(within(section).getByLabelText('API key')).toHaveValue('');
    await user.click(within(section).getByRole('radio', { name: 'Custom' }));
    expect(within(section).getByLabelText('Base URL')).toHaveValue('http://127.0.0.1:9000/v1');
    expect(within(section).getByText('A key is saved')).toBeInTheDocument();
  });

  it('never shows a stored key: "A key is saved" with Replace and Remove', async () => {
    vi.mocked(api.testConnection).mockResolvedValue(ok(['big-model']));
    const { user, dialog, section } = await open(STORED_CUSTOM);
    expect(within(section).getByText('A key is saved')).toBeInTheDocument();
    expect(within(section).queryByLabelText('API key', { selector: 'input' })).not.toBeInTheDocument();
    expect(within(section).getByRole('group', { name: 'API key' })).toBeInTheDocument();

    // Testing with the stored key: Go uses it (keepKey), the page never has it.
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(api.testConnection).toHaveBeenLastCalledWith({
      preset: 'custom',
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'big-model',
      apiKey: '',
      keepKey: true,
    });

    // Replace: a password field, focused; what is typed is sent.
    await user.click(within(section).getByRole('button', { name: 'Replace key' }));
    const key = within(section).getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveFocus();
    await user.type(key, 'sk-new-1234');
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(api.testConnection).toHaveBeenLastCalledWith(expect.objectContaining({ apiKey: 'sk-new-1234', keepKey: false }));
    await user.click(within(section).getByRole('button', { name: 'Keep the saved key' }));
    expect(within(section).getByText('A key is saved')).toBeInTheDocument();

    // Remove: said plainly, undoable, and saving removes it.
    await user.click(within(section).getByRole('button', { name: 'Remove key' }));
    expect(within(section).getByText('The saved key will be removed when you save.')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Undo' }));
    expect(within(section).getByText('A key is saved')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Remove key' }));
    vi.mocked(api.saveProvider).mockResolvedValue(providerView({ ...STORED_CUSTOM, hasKey: false }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveProvider).toHaveBeenCalledWith({
      preset: 'custom',
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'big-model',
      apiKey: '',
      keepKey: false,
    });
    expect(await within(section).findByLabelText('API key')).toHaveValue('');
  });

  it('says where keys are kept: the keyring, or a file only the user can read', async () => {
    const { section } = await open(STORED_CUSTOM);
    expect(within(section).getByText(new RegExp(KEYRING_NOTE))).toBeInTheDocument();
  });

  it('says so when keys go to a file', async () => {
    const { section } = await open({ ...STORED_CUSTOM, keyStorage: 'file', keyNote: FILE_NOTE });
    const note = within(section).getByText(/No system keyring is available/);
    expect(note).toHaveTextContent('secrets.json, readable only by you');
    expect(note).toHaveClass('key-note-file');
  });

  it('says when the environment overrides the settings', async () => {
    useAppStore.getState().setModelInfo({
      model: 'env-model',
      baseUrl: 'http://env:1/v1',
      demo: false,
      source: 'environment',
      preset: 'custom',
    });
    const { section } = await open({ ...STORED_CUSTOM, envOverride: true });
    const note = within(section).getByText(/The environment overrides these settings/).closest('p')!;
    expect(note).toHaveAttribute('role', 'note');
    expect(note).toHaveTextContent(/The environment overrides these settings/);
    expect(note).toHaveTextContent(/OPENAI_BASE_URL.*OPENAI_API_KEY.*env-model at http:\/\/env:1\/v1/);
    expect(note).toHaveTextContent(/takes over once those variables are unset/);
  });

  it('shows no environment note otherwise', async () => {
    const { section } = await open(STORED_CUSTOM);
    expect(within(section).queryByText(/environment overrides/)).not.toBeInTheDocument();
  });

  const VERDICTS: [Verdict, string, RegExp, string][] = [
    [ok(['a', 'b', 'c']), 'Connected', /3 models available/, 'verdict-ok'],
    [
      { ok: false, kind: 'wrong_key', message: 'The server rejected the API key.', modelCount: 0 },
      'Wrong API key',
      /The server rejected the API key\./,
      'verdict-warn',
    ],
    [
      { ok: false, kind: 'wrong_key', message: 'The server needs an API key.', modelCount: 0 },
      'API key needed',
      /The server needs an API key\./,
      'verdict-warn',
    ],
    [
      { ok: false, kind: 'unreachable', message: 'Could not reach http://127.0.0.1:9000/v1: connection refused.', modelCount: 0 },
      'Server unreachable',
      /Could not reach http:\/\/127\.0\.0\.1:9000\/v1: connection refused\./,
      'verdict-bad',
    ],
    [
      {
        ok: false,
        kind: 'model_not_found',
        message: 'Connected, but the server has no model "big-model" (it has 2: a, b).',
        modelCount: 2,
        models: ['a', 'b'],
      },
      'Model not found',
      /has no model "big-model"/,
      'verdict-warn',
    ],
    [
      {
        ok: false,
        kind: 'not_compatible',
        message: 'http://127.0.0.1:9000/v1 has no OpenAI-compatible /models endpoint (HTTP 404); the address usually ends in /v1.',
        modelCount: 0,
      },
      'Not an OpenAI-compatible server',
      /^Not an OpenAI-compatible serverhttp:\/\/127\.0\.0\.1:9000\/v1 has no .*usually ends in \/v1\.$/,
      'verdict-bad',
    ],
    [
      { ok: false, kind: 'invalid', message: '"ftp://x" is not an http(s) address such as http://localhost:11434/v1.', modelCount: 0 },
      'Check the address',
      /is not an http\(s\) address/,
      'verdict-bad',
    ],
  ];

  it.each(VERDICTS)('renders the %#th verdict kind with its headline, message and colour', async (verdict, title, message, cls) => {
    vi.mocked(api.testConnection).mockResolvedValue(verdict);
    const { user, section } = await open(STORED_CUSTOM);
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    const v = await within(section).findByTestId('verdict');
    expect(v).toHaveAttribute('data-kind', verdict.kind);
    expect(v).toHaveClass(cls);
    expect(within(v).getByText(title)).toBeInTheDocument();
    expect(v).toHaveTextContent(message);
    expect(v.querySelector('svg.verdict-icon')).not.toBeNull();
    const model = within(section).getByRole('combobox', { name: 'Model' });
    if (verdict.kind === 'model_not_found') expect(model).toHaveAttribute('aria-invalid', 'true');
    else expect(model).not.toHaveAttribute('aria-invalid');
  });

  it('a test that fails in Go (not a verdict) still gets an answer; editing the address clears the verdict', async () => {
    vi.mocked(api.testConnection).mockRejectedValue(new ApiError('internal', 'Read the key from the keyring: locked.'));
    const { user, section } = await open(STORED_CUSTOM);
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    const v = await within(section).findByTestId('verdict');
    expect(v).toHaveTextContent('The test failed');
    expect(v).toHaveTextContent('Read the key from the keyring: locked.');
    await user.type(within(section).getByLabelText('Base URL'), 'x');
    expect(within(section).queryByTestId('verdict')).not.toBeInTheDocument();
  });

  it('a failed test call can be copied with its details', async () => {
    vi.mocked(api.testConnection).mockRejectedValue(new ApiError('internal', 'read the key', 'secret service: locked collection'));
    const { user, section } = await open(STORED_CUSTOM);
    const writeText = mockClipboard();
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    await within(section).findByTestId('verdict');
    await user.click(within(section).getByRole('button', { name: 'Copy details' }));
    expect(writeText.mock.calls[0]![0]).toMatch(/^Error: read the key\nCode: internal\nTime: .+\nDetails:\nsecret service: locked collection$/);
  });

  it('a failed verdict can be copied', async () => {
    vi.mocked(api.testConnection).mockResolvedValue({ ok: false, kind: 'wrong_key', message: 'The server refused the key (HTTP 401).', modelCount: 0 });
    const { user, section } = await open(STORED_CUSTOM);
    const writeText = mockClipboard();
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    await within(section).findByTestId('verdict');
    await user.click(within(section).getByRole('button', { name: 'Copy details' }));
    expect(writeText.mock.calls[0]![0]).toMatch(/The server refused the key \(HTTP 401\)\.\nCode: wrong_key$/);
  });

  it('checks the address before asking Go', async () => {
    const { user, section } = await open();
    await user.click(within(section).getByRole('radio', { name: 'Custom' }));
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(api.testConnection).not.toHaveBeenCalled();
    expect(within(section).getByRole('alert')).toHaveTextContent('Enter the server address');
    expect(within(section).getByLabelText('Base URL')).toHaveAttribute('aria-invalid', 'true');
  });

  it('custom provider: test, pick a model from the list, save; the model info is asked again', async () => {
    vi.mocked(api.testConnection).mockResolvedValue(ok(['alpha', 'beta-large', 'gamma']));
    const { user, dialog, section } = await open();
    await user.click(within(section).getByRole('radio', { name: 'Custom' }));
    await user.type(within(section).getByLabelText('Base URL'), 'http://127.0.0.1:9000/v1');
    await user.type(within(section).getByLabelText('API key'), 'sk-typed-5678');
    await user.click(within(section).getByRole('button', { name: 'Test connection' }));
    expect(api.testConnection).toHaveBeenCalledWith({
      preset: 'custom',
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: '',
      apiKey: 'sk-typed-5678',
      keepKey: false,
    });
    expect(await within(section).findByTestId('verdict')).toHaveTextContent('Connected3 models available');

    // The first model is offered; the field suggests the server's models, filtered by what is typed.
    const model = within(section).getByRole('combobox', { name: 'Model' });
    expect(model).toHaveValue('alpha');
    await user.click(within(section).getByRole('button', { name: "Show the server's models" }));
    expect(model).toHaveAttribute('aria-expanded', 'true');
    const list = within(section).getByRole('listbox');
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['alpha', 'beta-large', 'gamma']);
    await user.keyboard('{Escape}');
    expect(model).toHaveAttribute('aria-expanded', 'false');
    // Esc closed the list, not the dialog.
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
    // A click on the field opens the list too.
    await user.click(model);
    expect(model).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await user.clear(model);
    await user.type(model, 'larg');
    expect(within(within(section).getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'beta-large',
    ]);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(model).toHaveValue('beta-large');
    expect(model).toHaveAttribute('aria-expanded', 'false');
    // Enter chose the option; it did not save.
    expect(api.saveProvider).not.toHaveBeenCalled();

    vi.mocked(api.saveProvider).mockResolvedValue(
      providerView({ preset: 'custom', baseUrl: 'http://127.0.0.1:9000/v1', model: 'beta-large', hasKey: true }),
    );
    // One Save, at the bottom of the dialog; the section has none of its own.
    expect(within(section).queryByRole('button', { name: /save/i })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveProvider).toHaveBeenCalledWith({
      preset: 'custom',
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'beta-large',
      apiKey: 'sk-typed-5678',
      keepKey: false,
    });
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved. New tasks use beta-large.');
    // Only the provider changed: the other settings were not sent again.
    expect(api.saveSettings).not.toHaveBeenCalled();
    // The key field now says a key is saved; the typed key is gone from the page.
    expect(within(section).getByText('A key is saved')).toBeInTheDocument();
    expect(section.innerHTML).not.toContain('sk-typed-5678');
    await waitFor(() => expect(api.modelInfo).toHaveBeenCalled());
    expect(api.currentModels).toHaveBeenCalled();
  });

  it('any model name can be typed', async () => {
    const { user, dialog, section } = await open(STORED_CUSTOM);
    const model = within(section).getByRole('combobox', { name: 'Model' });
    await user.clear(model);
    await user.type(model, 'my-own-finetune');
    vi.mocked(api.saveProvider).mockResolvedValue({ ...STORED_CUSTOM, model: 'my-own-finetune' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveProvider).toHaveBeenCalledWith(expect.objectContaining({ model: 'my-own-finetune', keepKey: true }));
  });

  it("shows Go's reason when saving fails", async () => {
    vi.mocked(api.saveProvider).mockRejectedValue(new ApiError('invalid', 'Choose a model.', undefined, 'model'));
    const { user, dialog, section } = await open(STORED_CUSTOM);
    // (The form checks this too; Go's reason is what shows when it gets there.)
    const model = within(section).getByRole('combobox', { name: 'Model' });
    await user.clear(model);
    await user.type(model, ' x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('Choose a model.');
    expect(model).toHaveAttribute('aria-invalid', 'true');
    // Said at the bottom too, without claiming success.
    expect(within(dialog).getAllByRole('alert').at(-1)).toHaveTextContent(
      'The model provider could not be saved (see above), so nothing was saved.',
    );
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
  });

  it('marks the field Go names in the error, whatever its message says', async () => {
    vi.mocked(api.saveProvider).mockRejectedValue(new ApiError('invalid', 'That will not do.', undefined, 'baseUrl'));
    const { user, dialog, section } = await open(STORED_CUSTOM);
    const model = within(section).getByRole('combobox', { name: 'Model' });
    await user.type(model, '-2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('That will not do.');
    expect(within(section).getByLabelText('Base URL')).toHaveAttribute('aria-invalid', 'true');
    expect(within(section).getByLabelText('Base URL')).toHaveAccessibleDescription(/That will not do\./);
    expect(model).not.toHaveAttribute('aria-invalid');
  });

  it('a failed save can be copied', async () => {
    vi.mocked(api.saveProvider).mockRejectedValue(new ApiError('internal', 'Could not store the key.', 'keyring: dbus closed'));
    const { user, dialog, section } = await open(STORED_CUSTOM);
    const writeText = mockClipboard();
    await user.type(within(section).getByRole('combobox', { name: 'Model' }), '-2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('Could not store the key.');
    await user.click(within(section).getByRole('button', { name: 'Copy details' }));
    expect(writeText.mock.calls[0]![0]).toMatch(/^Error: Could not store the key\.\nCode: internal\n.*\nDetails:\nkeyring: dbus closed$/s);
  });

  it('the demo model can be chosen again', async () => {
    vi.mocked(api.saveProvider).mockResolvedValue(providerView({ preset: 'demo' }));
    const { user, dialog, section } = await open(STORED_CUSTOM);
    await user.click(within(section).getByRole('radio', { name: 'Offline demo model' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveProvider).toHaveBeenCalledWith({ preset: 'demo', baseUrl: '', model: '', apiKey: '', keepKey: false });
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved. Errand uses the offline demo model.');
  });

  it('Save says when nothing changed, and does nothing then', async () => {
    const { user, dialog, section } = await open(STORED_CUSTOM);
    await within(dialog).findByLabelText('Step limit');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(save).toHaveAccessibleDescription('No changes to save.');
    await user.click(save);
    expect(api.saveProvider).not.toHaveBeenCalled();
    expect(api.saveSettings).not.toHaveBeenCalled();
    // A change to the provider alone makes it a Save again; undoing it does not.
    await user.click(within(section).getByRole('radio', { name: 'Ollama' }));
    expect(save).not.toHaveAttribute('aria-disabled');
    expect(within(dialog).queryByText('No changes to save.')).not.toBeInTheDocument();
    await user.click(within(section).getByRole('radio', { name: 'Custom' }));
    expect(save).toHaveAttribute('aria-disabled', 'true');
  });

  it("one Save saves a changed provider and the changed settings, which keep the provider it stored", async () => {
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const stored = providerView({ preset: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
    vi.mocked(api.saveProvider).mockResolvedValue(stored);
    const { user, dialog, section } = await open();
    const steps = await within(dialog).findByLabelText('Step limit');
    await user.click(within(section).getByRole('radio', { name: 'Ollama' }));
    await user.type(within(section).getByRole('combobox', { name: 'Model' }), 'llama3.1');
    await user.clear(steps);
    await user.type(steps, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveProvider).toHaveBeenCalledWith({
      preset: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
      apiKey: '',
      keepKey: false,
    });
    await waitFor(() => expect(api.saveSettings).toHaveBeenCalledTimes(1));
    const sent = vi.mocked(api.saveSettings).mock.calls[0]![0];
    expect(sent.provider).toEqual({ preset: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' });
    expect(sent.limits.maxSteps).toBe(12);
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved. New tasks use llama3.1.');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('nothing is saved while the provider fails the form\'s check', async () => {
    const { user, dialog, section } = await open();
    const steps = await within(dialog).findByLabelText('Step limit');
    await user.click(within(section).getByRole('radio', { name: 'Ollama' }));
    await user.type(steps, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('Choose a model.');
    expect(within(section).getByRole('combobox', { name: 'Model' })).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByRole('alert').at(-1)).toHaveTextContent(
      'The model provider could not be saved (see above), so nothing was saved.',
    );
    expect(api.saveProvider).not.toHaveBeenCalled();
    expect(api.saveSettings).not.toHaveBeenCalled();
  });

  it('a provider that needs a key is refused without one, and then nothing else is saved', async () => {
    vi.mocked(api.saveProvider).mockRejectedValue(
      new ApiError('invalid', 'OpenAI needs an API key: paste yours in the API key field.', undefined, 'apiKey'),
    );
    const { user, dialog, section } = await open();
    const steps = await within(dialog).findByLabelText('Step limit');
    await user.click(within(section).getByRole('radio', { name: 'OpenAI' }));
    await user.type(steps, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'OpenAI needs an API key: paste yours in the API key field.',
    );
    expect(within(section).getByLabelText('API key')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByRole('alert').at(-1)).toHaveTextContent('so nothing was saved');
    expect(api.saveSettings).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
    // The edits are all still there, to fix and save again.
    expect(within(section).getByRole('radio', { name: 'OpenAI' })).toBeChecked();
    expect(steps).toHaveValue(500);
  });

  it('says exactly what was saved when the provider was but the other settings were not', async () => {
    vi.mocked(api.saveProvider).mockResolvedValue(
      providerView({ preset: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'llama3.1' }),
    );
    vi.mocked(api.saveSettings).mockRejectedValue(new ApiError('invalid', 'The step limit must be between 1 and 10000.', undefined, 'maxSteps'));
    const { user, dialog, section } = await open();
    const steps = await within(dialog).findByLabelText('Step limit');
    await user.click(within(section).getByRole('radio', { name: 'Ollama' }));
    await user.type(within(section).getByRole('combobox', { name: 'Model' }), 'llama3.1');
    await user.clear(steps);
    await user.type(steps, '20000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const alert = await within(dialog).findByText(/the other settings were not/);
    expect(alert).toHaveTextContent(
      'The model provider was saved (new tasks use llama3.1), but the other settings were not: The step limit must be between 1 and 10000.',
    );
    expect(steps).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
    // The provider is no longer a change; the settings still are, and can be saved again.
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-disabled');
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    await user.clear(steps);
    await user.type(steps, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved.');
    expect(api.saveProvider).toHaveBeenCalledTimes(1);
    expect(vi.mocked(api.saveSettings).mock.calls.at(-1)![0].provider).toEqual({
      preset: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
    });
  });
});

describe('loading the provider', () => {
  it('presets that cannot be listed are an error with Try again and Copy details, never made-up presets', async () => {
    vi.mocked(api.getProvider).mockResolvedValue(providerView());
    vi.mocked(api.providerPresets).mockRejectedValueOnce(new ApiError('internal', 'Providers is not bound', 'no method Presets'));
    const user = userEvent.setup();
    const writeText = mockClipboard();
    render(<SettingsButton />);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const section = await screen.findByRole('group', { name: 'Model provider' });
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the provider: Providers is not bound');
    expect(within(section).queryByRole('radio')).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Copy details' }));
    expect(writeText.mock.calls[0]![0]).toMatch(/^Error: Providers is not bound\nCode: internal\n.*\nDetails:\nno method Presets$/s);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('radio', { name: 'Offline demo model' })).toBeChecked();
    expect(within(section).getAllByRole('radio')).toHaveLength(PRESETS.length);
  });

  it('an empty preset list is an error too', async () => {
    vi.mocked(api.getProvider).mockResolvedValue(providerView());
    vi.mocked(api.providerPresets).mockResolvedValueOnce([]);
    const user = userEvent.setup();
    render(<SettingsButton />);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const section = await screen.findByRole('group', { name: 'Model provider' });
    expect(await within(section).findByRole('alert')).toHaveTextContent('Errand listed no kinds of model server.');
    expect(within(section).queryByRole('radio')).not.toBeInTheDocument();
  });
});

describe('provider form', () => {
  const view = STORED_CUSTOM;

  it('keeps, replaces or removes the stored key', () => {
    const f = formFromView(view);
    expect(keyState(f, view)).toBe('stored');
    expect(inputFromForm(f, view)).toEqual({
      preset: 'custom',
      baseUrl: 'http://127.0.0.1:9000/v1',
      model: 'big-model',
      apiKey: '',
      keepKey: true,
    });
    const replacing: ProviderForm = { ...f, keyMode: 'replace', apiKey: ' sk-1 ' };
    expect(keyState(replacing, view)).toBe('input');
    expect(inputFromForm(replacing, view)).toMatchObject({ apiKey: 'sk-1', keepKey: false });
    // Replace with nothing typed keeps the stored key.
    expect(inputFromForm({ ...replacing, apiKey: '' }, view)).toMatchObject({ apiKey: '', keepKey: true });
    const removing: ProviderForm = { ...f, keyMode: 'remove' };
    expect(keyState(removing, view)).toBe('removing');
    expect(inputFromForm(removing, view)).toMatchObject({ apiKey: '', keepKey: false });
    expect(providerChanged(f, view)).toBe(false);
    expect(providerChanged(removing, view)).toBe(true);
    expect(providerChanged(replacing, view)).toBe(true);
  });

  it("another preset's key is not the stored one", () => {
    const f = switchPreset(formFromView(view), 'openai', view, PRESETS);
    expect(f).toEqual({ preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: '', keyMode: 'keep' });
    expect(keyState(f, view)).toBe('input');
    expect(inputFromForm(f, view)).toMatchObject({ apiKey: '', keepKey: false });
    expect(providerChanged(f, view)).toBe(true);
    expect(connectionKey(f, view)).not.toBe(connectionKey(formFromView(view), view));
  });

  it('nothing configured is the demo, unchanged until another preset is chosen', () => {
    const none = providerView();
    const f = formFromView(none);
    expect(f.preset).toBe('demo');
    expect(providerChanged(f, none)).toBe(false);
    expect(inputFromForm(f, none)).toEqual<ProviderInput>({ preset: 'demo', baseUrl: '', model: '', apiKey: '', keepKey: false });
  });
});

describe('Finding local servers', () => {
  it('a failed check is said beside the choices, which still work, and can be tried again', async () => {
    vi.mocked(api.detectProviders)
      .mockRejectedValueOnce(new ApiError('internal', 'network is unreachable'))
      .mockResolvedValueOnce([]);
    const { user, section } = await open();
    const note = await within(section).findByText(/Could not check which model servers are running/);
    expect(note).toHaveTextContent(/network is unreachable/i);
    expect(within(section).getByRole('radiogroup', { name: 'Provider' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(within(section).queryByText(/Could not check which model servers are running/)).not.toBeInTheDocument(),
    );
    expect(api.detectProviders).toHaveBeenCalledTimes(2);
  });
});

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../api/types';
import { deferred, resetStores, settings as goSettings } from '../../test/fixtures';
import { useAppStore } from '../../stores/app';
import { PRESETS } from '../../test/providers';


import * as api from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ApiError } from '../../api/errors';
import { SettingsButton } from './SettingsButton';
import { formFromSettings, settingsFromForm } from './settingsForm';
import { checkForm } from './settingsChecks';

// A field a later version adds: it must come back unchanged too.
const LATER = { futureField: { x: 1 } };

function settings(over: Partial<Settings> = {}): Settings {
  return {
    ...goSettings(),
    ...LATER,
    autoApprove: { read_only: true, writes: false, destructive: false },
    limits: { maxSteps: 50, maxMinutes: 30, maxCostUsd: 1 },
    stepDelayMs: 0,
    prices: { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 }, 'errand-demo': { inputPerMTok: 0, outputPerMTok: 0 } },
    contextLengths: { 'gpt-4o-mini': 128000 },
    systemPrompt: '',
    defaultMode: 'auto',
    reflectionRounds: 2,
    autoAskModel: false,
    // Saved through SaveProvider: it must come back unchanged.
    provider: { preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
    ...over,
  };
}

async function open() {
  const user = userEvent.setup();
  render(<SettingsButton />);
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const dialog = screen.getByRole('dialog', { name: 'Settings' });
  await within(dialog).findByLabelText('Step limit');
  return { user, dialog };
}

export const BUILT_IN = 'You are Errand, an AI agent.\nWork step by step.';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.getSettings).mockResolvedValue(settings());
  vi.mocked(api.defaultSystemPrompt).mockResolvedValue(BUILT_IN);
  vi.mocked(api.getProvider).mockResolvedValue({
    preset: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    hasKey: true,
    keysFor: ['openai'],
    keyStorage: 'keyring',
    keyNote: 'API keys are kept in your system keyring.',
    envOverride: false,
  });
  vi.mocked(api.providerPresets).mockResolvedValue(PRESETS);
  vi.mocked(api.detectProviders).mockResolvedValue([]);
  vi.mocked(api.listModels).mockResolvedValue(['gpt-4o', 'gpt-4o-mini']);
});

describe('Settings', () => {
  it('an agent begun before the settings have loaded stays open, as typed, when they come', async () => {
    const loading = deferred<Settings>();
    vi.mocked(api.getSettings).mockReturnValue(loading.promise);
    vi.mocked(api.listAgents).mockResolvedValue([]);
    vi.mocked(api.agentToolNames).mockResolvedValue([]);
    const user = userEvent.setup();
    render(<SettingsButton />);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    await user.click(within(dialog).getByRole('button', { name: 'New agent' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Ender');
    await act(async () => loading.resolve(settings()));
    expect(await within(dialog).findByLabelText('Step limit')).toHaveValue(50);
    const form = within(dialog).getByRole('form', { name: 'New agent' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Ender');
  });

  it('loads the settings into the form', async () => {
    const { dialog } = await open();
    expect(api.getSettings).toHaveBeenCalledTimes(1);
    expect(within(dialog).getByLabelText('Step limit')).toHaveValue(50);
    expect(within(dialog).getByLabelText('Time limit')).toHaveValue(30);
    expect(within(dialog).getByLabelText('Spend limit')).toHaveValue(1);
    expect(within(dialog).getByLabelText('Delay between steps')).toHaveValue(0);
    expect(within(dialog).getByRole('checkbox', { name: 'Read-only tools' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Tools that write files' })).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /Destructive/ })).not.toBeChecked();
    expect(within(dialog).getByRole('textbox', { name: 'Model name, row 2' })).toHaveValue('gpt-4o-mini');
    expect(within(dialog).getByLabelText('Output price of gpt-4o-mini, $ per 1M tokens')).toHaveValue(0.6);
    expect(within(dialog).getByRole('group', { name: 'Model provider' })).toBeInTheDocument();
  });

  it('edits and saves: SaveSettings gets the new values and every field it did not edit', async () => {
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const steps = within(dialog).getByLabelText('Step limit');
    await user.clear(steps);
    await user.type(steps, '2');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Tools that write files' }));
    await user.clear(within(dialog).getByLabelText('Delay between steps'));
    await user.type(within(dialog).getByLabelText('Delay between steps'), '250');
    // Remove a price, add one.
    await user.click(within(dialog).getByRole('button', { name: 'Remove errand-demo' }));
    await user.click(within(dialog).getByRole('button', { name: '+ Add model' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Model name, row 2' }), 'mock-model');
    const input = within(dialog).getByLabelText('Input price of mock-model, $ per 1M tokens');
    await user.clear(input);
    await user.type(input, '1.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(api.saveSettings).toHaveBeenCalledTimes(1);
    expect(api.saveSettings).toHaveBeenCalledWith({
      ...settings(),
      autoApprove: { read_only: true, writes: true, destructive: false },
      limits: { maxSteps: 2, maxMinutes: 30, maxCostUsd: 1 },
      stepDelayMs: 250,
      prices: {
        'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
        'mock-model': { inputPerMTok: 1.5, outputPerMTok: 0 },
      },
      contextLengths: { 'gpt-4o-mini': 128000 },
      systemPrompt: '',
      defaultMode: 'auto',
      reflectionRounds: 2,
      autoAskModel: false,
      provider: { preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
      futureField: { x: 1 },
    });
    expect(api.saveProvider).not.toHaveBeenCalled();
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved.');
    // Editing again clears the feedback.
    await user.type(steps, '0');
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
  });

  it('the model timeouts: shown near the limits, saved with the rest, and Go\'s bounds shown at the field', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({ modelFirstByteTimeoutSec: 120, modelIdleTimeoutSec: 60 }));
    vi.mocked(api.saveSettings)
      .mockRejectedValueOnce(new ApiError('invalid', 'The model idle timeout must be between 5 and 3600 seconds.', undefined, 'modelIdleTimeoutSec'))
      .mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const firstByte = within(dialog).getByLabelText('Model first-byte timeout (s)');
    const idle = within(dialog).getByLabelText('Model idle timeout (s)');
    expect(firstByte).toHaveValue(120);
    expect(idle).toHaveValue(60);

    await user.clear(idle);
    await user.type(idle, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The model idle timeout must be between 5 and 3600 seconds.');
    expect(idle).toHaveAttribute('aria-invalid', 'true');

    await user.clear(firstByte);
    await user.type(firstByte, '300');
    await user.clear(idle);
    await user.type(idle, '90');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(
      expect.objectContaining({ modelFirstByteTimeoutSec: 300, modelIdleTimeoutSec: 90, stepDelayMs: 0 }),
    );
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Saved.');
  });

  it("shows Go's validation error inline and marks the field", async () => {
    vi.mocked(api.saveSettings).mockRejectedValue(
      new ApiError('invalid', 'The step limit must be between 1 and 10000.', undefined, 'maxSteps'),
    );
    const { user, dialog } = await open();
    const steps = within(dialog).getByLabelText('Step limit');
    await user.clear(steps);
    await user.type(steps, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ limits: { maxSteps: 0, maxMinutes: 30, maxCostUsd: 1 } }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The step limit must be between 1 and 10000.');
    expect(steps).toHaveAttribute('aria-invalid', 'true');
    expect(steps).toHaveAccessibleDescription('The step limit must be between 1 and 10000.');
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
  });

  it('marks the field Go names in the error, whatever its message says', async () => {
    vi.mocked(api.saveSettings).mockRejectedValue(new ApiError('invalid', 'That number will not do.', undefined, 'stepDelayMs'));
    const { user, dialog } = await open();
    const steps = within(dialog).getByLabelText('Step limit');
    await user.type(steps, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That number will not do.');
    const delay = within(dialog).getByLabelText('Delay between steps');
    expect(delay).toHaveAttribute('aria-invalid', 'true');
    expect(delay).toHaveAccessibleDescription(/That number will not do\./);
    expect(steps).not.toHaveAttribute('aria-invalid');
  });

  it('a context length Go refuses marks the model table', async () => {
    vi.mocked(api.saveSettings).mockRejectedValue(
      new ApiError('invalid', 'The context length of "gpt-4o-mini" must be between 1024 and 10000000 tokens (it is 5).', undefined, 'contextLengths'),
    );
    const { user, dialog } = await open();
    await user.type(within(dialog).getByLabelText('Step limit'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByRole('alert');
    expect(within(dialog).getByRole('group', { name: 'Prices and context lengths' })).toHaveAccessibleDescription(/The context length of/);
    expect(within(dialog).getByLabelText('Step limit')).not.toHaveAttribute('aria-invalid');
  });

  it('when the bridge loses Go\'s reason, explains from the form itself', async () => {
    vi.mocked(api.saveSettings).mockRejectedValue(new Error('[object Object]'));
    const { user, dialog } = await open();
    await user.clear(within(dialog).getByLabelText('Spend limit'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The spend limit must be more than $0');
    expect(within(dialog).getByLabelText('Spend limit')).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a model listed twice without asking Go', async () => {
    const { user, dialog } = await open();
    await user.click(within(dialog).getByRole('button', { name: '+ Add model' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Model name, row 3' }), 'gpt-4o-mini');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The model gpt-4o-mini is listed twice');
    expect(api.saveSettings).not.toHaveBeenCalled();
  });

  it('offers the three tool risks to run without asking, and never local network access', async () => {
    const { dialog } = await open();
    const group = within(dialog).getByRole('group', { name: 'Run without asking' });
    expect(within(group).getAllByRole('checkbox')).toHaveLength(3);
    for (const name of ['Read-only tools', 'Tools that write files', 'Destructive tools (run commands)']) {
      expect(within(group).getByRole('checkbox', { name })).toBeInTheDocument();
    }
    expect(within(group).queryByRole('checkbox', { name: /local/i })).not.toBeInTheDocument();
    expect(within(group).getByRole('checkbox', { name: 'Read-only tools' })).toHaveAccessibleDescription(
      /an address on this computer or your local network is asked every time/,
    );
  });

  it('warns when destructive tools would run without asking', async () => {
    const { user, dialog } = await open();
    expect(within(dialog).queryByText(/will run any command/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: /Destructive/ }));
    expect(within(dialog).getByText(/will run any command it decides on/)).toBeInTheDocument();
  });

  it('Esc closes it and gives the focus back to the gear; Tab stays inside', async () => {
    const { user, dialog } = await open();
    expect(dialog).toHaveFocus();
    const gear = screen.getByRole('button', { name: 'Settings' });
    // Tab from the last control wraps to the first.
    within(dialog).getByRole('button', { name: 'Save' }).focus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(gear).toHaveFocus());
  });

  it('Esc with changes not saved asks before throwing them away', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SettingsButton />
        <ConfirmDialog />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    const steps = await within(dialog).findByLabelText('Step limit');
    await user.clear(steps);
    await user.type(steps, '80');
    await user.keyboard('{Escape}');
    const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Step limit')).toHaveValue(80);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).not.toBeInTheDocument();
    expect(api.saveSettings).not.toHaveBeenCalled();
  });

  it('Esc, × and a click outside ask before throwing away a change to the provider too', async () => {
    const user = userEvent.setup();
    render(
      <>
        <SettingsButton />
        <ConfirmDialog />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    await within(dialog).findByLabelText('Step limit');
    const section = within(dialog).getByRole('group', { name: 'Model provider' });
    await user.click(await within(section).findByRole('radio', { name: 'Ollama' }));
    for (const close of [
      () => user.keyboard('{Escape}'),
      () => user.click(within(dialog).getByRole('button', { name: 'Close' })),
      () => user.click(document.querySelector('.settings-backdrop')!),
    ]) {
      await close();
      const ask = screen.getByRole('alertdialog', { name: 'Discard your changes?' });
      await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
      expect(within(section).getByRole('radio', { name: 'Ollama' })).toBeChecked();
    }
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).not.toBeInTheDocument();
    expect(api.saveProvider).not.toHaveBeenCalled();
  });

  it('a failed load says so and can try again', async () => {
    vi.mocked(api.getSettings).mockRejectedValueOnce(new ApiError('internal', 'database is locked'));
    const user = userEvent.setup();
    render(<SettingsButton />);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the settings: database is locked');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Step limit')).toHaveValue(50);
  });
});

describe('Memory', () => {
  it('saves the Use memory switch at once, and a later Save keeps it', async () => {
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const memory = within(dialog).getByRole('region', { name: 'Memory' });
    expect(within(memory).getByRole('heading', { name: 'Memory' })).toBeInTheDocument();
    const sw = within(memory).getByRole('switch', { name: 'Use memory' });
    expect(sw).toHaveAttribute('aria-checked', 'true');
    await user.click(sw);
    expect(api.saveSettings).toHaveBeenLastCalledWith(expect.objectContaining({ memoryEnabled: false, futureField: { x: 1 } }));
    await waitFor(() => expect(sw).toHaveAttribute('aria-checked', 'false'));

    await user.clear(within(dialog).getByLabelText('Step limit'));
    await user.type(within(dialog).getByLabelText('Step limit'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(
      expect.objectContaining({ memoryEnabled: false, limits: expect.objectContaining({ maxSteps: 7 }) }),
    );
  });
});

describe('Agent instructions', () => {
  it('shows the built-in instructions; an edit is saved as custom, Reset to default stores none', async () => {
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const prompt = within(dialog).getByRole('textbox', { name: 'System prompt' });
    expect(prompt).toHaveValue(BUILT_IN);
    expect(within(dialog).getByText('Built-in', { selector: '.prompt-badge' })).toBeInTheDocument();
    expect(prompt).toHaveAccessibleDescription(/^Built-in What the agent is told/);
    expect(within(dialog).getByRole('button', { name: 'Reset to default' })).toBeDisabled();

    await user.type(prompt, '\nAlways answer in French.');
    expect(within(dialog).getByText('Custom', { selector: '.prompt-badge' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(
      expect.objectContaining({ systemPrompt: `${BUILT_IN}\nAlways answer in French.` }),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Reset to default' }));
    expect(prompt).toHaveValue(BUILT_IN);
    expect(within(dialog).getByText('Built-in', { selector: '.prompt-badge' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.saveSettings).toHaveBeenCalledTimes(2));
    expect(api.saveSettings).toHaveBeenLastCalledWith(expect.objectContaining({ systemPrompt: '' }));
  });

  it('shows stored custom instructions as custom; clearing the field means the built-in ones', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({ systemPrompt: 'Be brief.' }));
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const prompt = within(dialog).getByRole('textbox', { name: 'System prompt' });
    expect(prompt).toHaveValue('Be brief.');
    expect(within(dialog).getByText('Custom', { selector: '.prompt-badge' })).toBeInTheDocument();
    await user.clear(prompt);
    expect(prompt).toHaveAttribute('placeholder', BUILT_IN);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(expect.objectContaining({ systemPrompt: '' }));
  });

  it('says why the built-in instructions are missing, and shows them when asked again', async () => {
    vi.mocked(api.defaultSystemPrompt).mockRejectedValueOnce(new ApiError('internal', 'database is locked'));
    const { user, dialog } = await open();
    const prompt = within(dialog).getByRole('textbox', { name: 'System prompt' });
    expect(prompt).toHaveValue('');
    const status = await within(dialog).findByText(/Could not show Errand’s built-in instructions/);
    expect(status).toHaveTextContent(/database is locked/i);
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(prompt).toHaveValue(BUILT_IN));
    expect(within(dialog).queryByText(/Could not show Errand’s built-in instructions/)).not.toBeInTheDocument();
  });

  it('refuses instructions longer than Go accepts, without asking Go', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({ systemPrompt: 'x'.repeat(20001) }));
    const { user, dialog } = await open();
    await user.type(within(dialog).getByRole('textbox', { name: 'System prompt' }), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('longer than 20000 characters');
    expect(within(dialog).getByRole('textbox', { name: 'System prompt' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.saveSettings).not.toHaveBeenCalled();
  });
});

describe('Prices and context lengths', () => {
  it('edits a context length per model; a model with only a context length has no price', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(
      settings({ contextLengths: { 'gpt-4o-mini': 128000, 'llama3.1': 8192 } }),
    );
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    expect(within(dialog).getByLabelText('Context length of gpt-4o-mini, tokens')).toHaveValue(128000);
    expect(within(dialog).getByLabelText('Context length of errand-demo, tokens')).toHaveValue(null);
    expect(within(dialog).getByLabelText('Input price of llama3.1, $ per 1M tokens')).toHaveValue(null);
    const ctx = within(dialog).getByLabelText('Context length of llama3.1, tokens');
    await user.clear(ctx);
    await user.type(ctx, '131072');
    await user.type(within(dialog).getByLabelText('Context length of errand-demo, tokens'), '4096');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenCalledWith(
      expect.objectContaining({
        prices: {
          'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
          'errand-demo': { inputPerMTok: 0, outputPerMTok: 0 },
        },
        contextLengths: { 'gpt-4o-mini': 128000, 'llama3.1': 131072, 'errand-demo': 4096 },
      }),
    );
  });

  it('refuses a context length that is not a whole number, and a half-filled price', async () => {
    const { user, dialog } = await open();
    await user.type(within(dialog).getByLabelText('Context length of gpt-4o-mini, tokens'), '{Backspace}.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The context length of gpt-4o-mini must be a whole number');
    await user.clear(within(dialog).getByLabelText('Context length of gpt-4o-mini, tokens'));
    await user.clear(within(dialog).getByLabelText('Input price of errand-demo, $ per 1M tokens'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The prices of errand-demo must be numbers');
    expect(api.saveSettings).not.toHaveBeenCalled();
  });
});

describe('Thinking', () => {
  it('saves the Show thinking switch at once, hides the blocks, and a later Save keeps it', async () => {
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const section = within(dialog).getByRole('region', { name: 'Thinking' });
    const sw = within(section).getByRole('switch', { name: 'Show thinking' });
    expect(sw).toBeChecked();
    await user.click(sw);
    expect(api.saveSettings).toHaveBeenLastCalledWith(expect.objectContaining({ showThinking: false, futureField: { x: 1 } }));
    await waitFor(() => expect(sw).not.toBeChecked());
    expect(useAppStore.getState().showThinking).toBe(false);

    await user.clear(within(dialog).getByLabelText('Step limit'));
    await user.type(within(dialog).getByLabelText('Step limit'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(
      expect.objectContaining({ showThinking: false, limits: expect.objectContaining({ maxSteps: 7 }) }),
    );
  });

  it('says when the switch could not be saved, and leaves the blocks as they were', async () => {
    vi.mocked(api.saveSettings).mockRejectedValue(new ApiError('internal', 'database is locked'));
    const { user, dialog } = await open();
    const sw = within(dialog).getByRole('switch', { name: 'Show thinking' });
    await user.click(sw);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The setting could not be saved: database is locked');
    expect(sw).toBeChecked();
    expect(useAppStore.getState().showThinking).toBe(true);
  });

  it('edits the reasoning effort of the default model beside it, saved with the rest; Default sends none', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({ reasoningEffort: { 'deepseek-v4': 'high', 'gpt-4o-mini': 'medium' } }));
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    // One control, in the provider section, for the model chosen there.
    const provider = within(dialog).getByRole('group', { name: 'Model provider' });
    const effort = await within(provider).findByRole('combobox', { name: 'Reasoning effort' });
    expect(within(dialog).getAllByRole('combobox', { name: /reasoning effort/i })).toEqual([effort]);
    expect(effort).toHaveValue('medium');
    expect(within(effort).getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', 'Low', 'Medium', 'High']);
    // A model with only an effort has no row in the model table.
    expect(within(dialog).queryByDisplayValue('deepseek-v4')).toBeNull();

    await user.selectOptions(effort, 'High');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(
      expect.objectContaining({ reasoningEffort: { 'deepseek-v4': 'high', 'gpt-4o-mini': 'high' } }),
    );
    expect(await within(dialog).findByText(/^Saved\./)).toBeInTheDocument();

    await user.selectOptions(effort, 'Default');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenLastCalledWith(expect.objectContaining({ reasoningEffort: { 'deepseek-v4': 'high' } }));
  });

  it('the reasoning effort follows the model chosen, and setting it back leaves nothing to save', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({ reasoningEffort: { 'deepseek-v4': 'high', 'gpt-4o-mini': 'low' } }));
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    const effort = await within(dialog).findByRole('combobox', { name: 'Reasoning effort' });
    expect(effort).toHaveValue('low');
    const model = within(dialog).getByRole('combobox', { name: 'Model' });
    await user.clear(model);
    expect(effort).toBeDisabled();
    await user.type(model, 'deepseek-v4');
    expect(effort).toHaveValue('high');
    await user.clear(model);
    await user.type(model, 'gpt-4o-mini');
    await user.selectOptions(effort, 'Default');
    expect(within(dialog).queryByText('No changes to save.')).toBeNull();
    await user.selectOptions(effort, 'Low');
    expect(within(dialog).getByText('No changes to save.')).toBeInTheDocument();
  });
});

describe('settings form', () => {
  it('never sends local_network as approved in advance, even when it was stored', () => {
    const s = settings({ autoApprove: { read_only: true, writes: false, destructive: false, local_network: true } as Settings['autoApprove'] });
    const form = formFromSettings(s);
    expect(Object.keys(form.autoApprove).sort()).toEqual(['destructive', 'read_only', 'writes']);
    expect(settingsFromForm(form, s).autoApprove).toEqual({ read_only: true, writes: false, destructive: false });
  });

  it('Default mode, reflection rounds and asking the model are saved with the rest', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings());
    vi.mocked(api.saveSettings).mockImplementation(async (s) => s);
    const { user, dialog } = await open();
    await user.selectOptions(within(dialog).getByLabelText('Default mode'), 'Agent');
    const rounds = within(dialog).getByLabelText('Reflection rounds');
    await user.clear(rounds);
    await user.type(rounds, '0');
    await user.click(within(dialog).getByLabelText('Ask the model when Auto is unsure'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(api.saveSettings).toHaveBeenCalledWith(
      expect.objectContaining({ defaultMode: 'agent', reflectionRounds: 0, autoAskModel: true }),
    );
  });

  it('round-trips and checks what it can', () => {
    const s = settings();
    const form = formFromSettings(s);
    expect(settingsFromForm(form, s)).toEqual(s);
    expect(checkForm(form)).toBeNull();
    expect(checkForm({ ...form, maxSteps: '1.5' })?.field).toBe('maxSteps');
    expect(checkForm({ ...form, maxMinutes: '' })?.field).toBe('maxMinutes');
    expect(checkForm({ ...form, stepDelayMs: '-1' })?.field).toBe('stepDelayMs');
    expect(checkForm({ ...form, reflectionRounds: '9' })?.field).toBe('reflectionRounds');
    expect(checkForm({ ...form, prices: [...form.prices, { key: 99, model: ' ', input: '0', output: '0', context: '' }] })?.message).toMatch(
      /needs a model name/,
    );
  });

  it('edits the checkpoint limit and the excluded folders', () => {
    const s = settings({ checkpointLimitMb: 1024, checkpointExclude: ['.git', 'node_modules'] });
    const form = formFromSettings(s);
    expect(form.checkpointExclude).toBe('.git, node_modules');
    expect(settingsFromForm(form, s)).toEqual(s);
    const edited = { ...form, checkpointLimitMb: '50', checkpointExclude: '.git,\n dist , .git' };
    expect(settingsFromForm(edited, s)).toMatchObject({ checkpointLimitMb: 50, checkpointExclude: ['.git', 'dist'] });
    expect(checkForm({ ...form, checkpointLimitMb: '5' })?.field).toBe('checkpoints');
    expect(checkForm({ ...form, checkpointExclude: 'build/out' })?.message).toMatch(/folder name such as node_modules, not "build\/out"/);
  });
});

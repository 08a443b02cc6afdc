import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStores } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import type { AgentDefinition } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { AgentsSection, blankAgent } from './AgentsSection';

const errand: AgentDefinition = { ...blankAgent(), id: 'errand', name: 'Errand', builtIn: true, allTools: true };
const mine: AgentDefinition = { ...blankAgent(), id: 'reader', name: 'Reader', tools: ['read_file'] };

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.listAgents).mockResolvedValue([errand, mine]);
  vi.mocked(api.agentToolNames).mockResolvedValue(['list_files', 'read_file', 'write_file']);
});

describe('Settings → Agents', () => {
  it('New agent: a refused definition shows Go’s reason and stays; a good one is saved with its tools and an id from its name', async () => {
    const user = userEvent.setup();
    render(<AgentsSection />);
    const section = screen.getByRole('region', { name: 'Agents' });
    await within(section).findByText('Reader');
    expect(within(section).queryByRole('button', { name: 'Edit Errand' })).not.toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'New agent' }));
    const form = within(section).getByRole('form', { name: 'New agent' });
    vi.mocked(api.createAgent).mockRejectedValueOnce(new ApiError('invalid', 'the agent needs a name'));
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('the agent needs a name');

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Code Reviewer');
    await user.click(await within(form).findByRole('checkbox', { name: 'read_file' }));
    vi.mocked(api.createAgent).mockImplementation(async (d) => d);
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(within(section).queryByRole('form')).not.toBeInTheDocument());
    const saved = vi.mocked(api.createAgent).mock.calls.at(-1)![0];
    expect(saved).toMatchObject({ id: 'code-reviewer', name: 'Code Reviewer', tools: ['read_file'], allTools: false });
    expect(api.listAgents).toHaveBeenCalledTimes(2); // read again after the save
  });

  it('edits, exports and deletes the person’s own agent; built-ins are duplicated', async () => {
    vi.mocked(api.deleteAgent).mockResolvedValue(undefined);
    vi.mocked(api.exportAgentFile).mockResolvedValue('/home/me/reader.agent.json');
    vi.mocked(api.duplicateAgent).mockResolvedValue({ ...errand, id: 'errand-1a2b3c', name: 'Errand (copy)', builtIn: false });
    const user = userEvent.setup();
    render(
      <>
        <AgentsSection />
        <ConfirmDialog />
      </>,
    );
    const section = screen.getByRole('region', { name: 'Agents' });
    await user.click(await within(section).findByRole('button', { name: 'Edit Reader' }));
    const form = within(section).getByRole('form', { name: 'Agent Reader' });
    await user.click(within(form).getByRole('button', { name: 'Export agent' }));
    expect(api.exportAgentFile).toHaveBeenCalledWith('reader');
    // Deleting asks first; Keep it changes nothing.
    await user.click(within(form).getByRole('button', { name: 'Delete agent' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Delete the agent Reader?' });
    expect(ask).toHaveTextContent('Its conversations go on with Errand');
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(api.deleteAgent).not.toHaveBeenCalled();
    expect(within(section).getByRole('form', { name: 'Agent Reader' })).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Delete agent' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete agent' }));
    await waitFor(() => expect(api.deleteAgent).toHaveBeenCalledWith('reader'));

    await user.click(within(section).getByRole('button', { name: 'Duplicate Errand' }));
    expect(api.duplicateAgent).toHaveBeenCalledWith('errand');
    expect(await within(section).findByRole('form', { name: 'Agent Errand (copy)' })).toBeInTheDocument();
  });
});

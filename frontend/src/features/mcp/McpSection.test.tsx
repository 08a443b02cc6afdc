import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MCPServerState } from '../../api/types';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import * as events from '../../events';
import { startSync } from '../../stores/sync';
import { resetStores } from '../../test/fixtures';
import { McpSection } from './McpSection';
import { inputOf, emptyForm } from './serverForm';
import { partsOf, ToolBody } from './ToolBody';

function state(over: Partial<MCPServerState> = {}): MCPServerState {
  return {
    server: {
      id: 's1',
      name: 'everything',
      transport: 'stdio',
      command: 'node',
      args: ['index.js', 'stdio'],
      enabled: true,
      createdAt: '2026-01-01T10:00:00Z',
      updatedAt: '2026-01-01T10:00:00Z',
    },
    status: 'ready',
    tools: [
      { name: 'echo', fullName: 'everything__echo', description: 'Echoes', risk: 'read_only', hintRisk: 'read_only' },
      {
        name: 'odd',
        fullName: 'everything__odd',
        description: '',
        risk: 'writes',
        hintRisk: 'writes',
        refused: 'not offered: its input schema is not an object',
      },
    ],
    ...over,
  };
}

/** Go's mcp:server event, delivered through the stores' subscription (startSync). */
function serverEvent(payload: MCPServerState): void {
  const handler = vi.mocked(events.onMCPServer).mock.calls.at(-1)?.[0];
  if (!handler) throw new Error('nothing subscribed to mcp:server');
  handler(payload);
}

function section() {
  render(<McpSection timeoutSec={120} onTimeout={vi.fn(async () => {})} />);
  return userEvent.setup();
}

let stopSync = () => {};
beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  stopSync = startSync();
  vi.mocked(api.listMCPServers).mockResolvedValue([state()]);
  vi.mocked(api.claudeConfigPath).mockResolvedValue('/home/me/.config/Claude/claude_desktop_config.json');
});

afterEach(() => stopSync());

describe('MCP servers', () => {
  it('lists each server with its status and its tools with their risk', async () => {
    const user = section();
    expect(screen.getByRole('heading', { name: 'MCP servers' })).toBeInTheDocument();
    const row = await screen.findByRole('listitem', { name: 'everything' });
    expect(within(row).getByText('Ready · 1 tools')).toBeInTheDocument();
    await user.click(within(row).getByText('Tools (2)'));
    expect(within(row).getByRole('combobox', { name: 'Risk of everything__echo' })).toHaveValue('');
    expect(within(row).getByText('not offered: its input schema is not an object')).toBeInTheDocument();

    vi.mocked(api.setMCPToolRisk).mockResolvedValue(state());
    await user.selectOptions(within(row).getByRole('combobox', { name: 'Risk of everything__echo' }), 'writes');
    expect(api.setMCPToolRisk).toHaveBeenCalledWith('s1', 'echo', 'writes');
  });

  it('says beside the status how many tools are not offered, and nothing when all are', async () => {
    section();
    const row = await screen.findByRole('listitem', { name: 'everything' });
    expect(within(row).getByText('1 not offered (see Tools)')).toBeInTheDocument();
    serverEvent(state({ tools: state().tools.filter((t) => !t.refused) }));
    await waitFor(() => expect(within(row).queryByText(/not offered/)).not.toBeInTheDocument());
    expect(within(row).getByText('Ready · 1 tools')).toBeInTheDocument();
  });

  it('shows a status change as it happens, a failure with its reason', async () => {
    section();
    await screen.findByRole('listitem', { name: 'everything' });
    serverEvent(state({ status: 'failed', reason: 'it exited before it was ready', tools: [] }));
    expect(await screen.findByText('Failed: it exited before it was ready')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restart' })).toBeInTheDocument();
  });

  it('adds a server and shows why Go refused one', async () => {
    const user = section();
    await screen.findByRole('listitem', { name: 'everything' });
    await user.click(screen.getByRole('button', { name: 'Add server' }));
    const form = screen.getByRole('form', { name: 'New MCP server' });
    await user.type(within(form).getByLabelText('Name'), 'bad name');
    await user.type(within(form).getByLabelText('Command'), 'npx');
    vi.mocked(api.saveMCPServer).mockRejectedValueOnce(new ApiError('invalid', 'the server name "bad name" must be 1 to 32 letters'));
    await user.click(within(form).getByRole('button', { name: 'Save server' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('must be 1 to 32 letters');

    vi.mocked(api.saveMCPServer).mockResolvedValueOnce(state());
    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'files');
    await user.type(within(form).getByLabelText('Arguments (one a line)'), '-y{Enter}server-filesystem');
    await user.click(within(form).getByRole('button', { name: 'Save server' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New MCP server' })).not.toBeInTheDocument());
    expect(api.saveMCPServer).toHaveBeenLastCalledWith(
      expect.objectContaining({ name: 'files', command: 'npx', args: ['-y', 'server-filesystem'], transport: 'stdio' }),
    );
  });

  it('imports Claude Desktop’s configuration, and a broken one says why and saves nothing', async () => {
    const user = section();
    await screen.findByRole('listitem', { name: 'everything' });
    await user.click(screen.getByRole('button', { name: 'Import from Claude Desktop' }));
    const group = screen.getByRole('group', { name: 'Import from Claude Desktop' });
    const box = within(group).getByLabelText('Claude Desktop configuration (JSON)');
    await user.click(box);
    await user.paste('{"mcpServers": {');
    vi.mocked(api.importClaudeConfig).mockRejectedValueOnce(
      new ApiError('invalid', 'the configuration is not valid JSON: unexpected end of JSON input'),
    );
    await user.click(within(group).getByRole('button', { name: 'Import pasted' }));
    expect(await within(group).findByRole('alert')).toHaveTextContent('not valid JSON');
    expect(api.importClaudeConfig).toHaveBeenCalledWith('{"mcpServers": {');

    vi.mocked(api.importClaudeConfig).mockResolvedValueOnce([state()]);
    await user.click(within(group).getByRole('button', { name: 'Read from Claude Desktop’s file' }));
    await waitFor(() => expect(api.importClaudeConfig).toHaveBeenLastCalledWith(''));
  });
});

describe('server form', () => {
  it('reads arguments a line each and the environment as KEY=value', () => {
    expect(inputOf({ ...emptyForm, name: ' a ', command: 'node', args: 'x\n\n y ', env: 'TOKEN=a=b' })).toEqual({
      input: expect.objectContaining({ name: 'a', command: 'node', args: ['x', 'y'], env: { TOKEN: 'a=b' } }),
    });
    expect(inputOf({ ...emptyForm, env: 'oops' })).toEqual({ error: 'The environment line "oops" is not KEY=value.' });
  });
});

describe('tool results', () => {
  const ref = '[image image/png, 178 bytes, shown to the user: errand-image:0b5b7a57-7d4c-4cd4-9f0c-3f0a3c5d2e11]';

  it('cuts the text around the images it names', () => {
    expect(partsOf(`before\n${ref}\nafter`)).toEqual([
      { text: 'before\n' },
      { image: '0b5b7a57-7d4c-4cd4-9f0c-3f0a3c5d2e11', mime: 'image/png' },
      { text: '\nafter' },
    ]);
    expect(partsOf('plain')).toEqual([{ text: 'plain' }]);
  });

  it('shows an image a tool returned as an image', async () => {
    vi.mocked(api.toolImage).mockResolvedValue('data:image/png;base64,iVBORw0KGgo=');
    render(<ToolBody id="b" text={`Here it is:\n${ref}`} />);
    const img = await screen.findByRole('img', { name: 'Image returned by the tool (image/png)' });
    expect(img).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(api.toolImage).toHaveBeenCalledWith('0b5b7a57-7d4c-4cd4-9f0c-3f0a3c5d2e11');
  });
});

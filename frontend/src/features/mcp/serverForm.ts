import type { MCPServerInput, MCPServerState, MCPTransport } from '../../api';

/** The add/edit form of a server, as the person types it. */
export interface ServerForm {
  id: string;
  name: string;
  transport: MCPTransport;
  command: string;
  /** One argument a line. */
  args: string;
  /** One KEY=value a line. */
  env: string;
  url: string;
  enabled: boolean;
}

export const emptyForm: ServerForm = {
  id: '',
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  env: '',
  url: '',
  enabled: true,
};

export function formOf(s: MCPServerState): ServerForm {
  const srv = s.server;
  return {
    id: srv.id,
    name: srv.name,
    transport: srv.transport,
    command: srv.command ?? '',
    args: (srv.args ?? []).join('\n'),
    env: Object.entries(srv.env ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    url: srv.url ?? '',
    enabled: srv.enabled,
  };
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** What SaveServer gets, or what is wrong with the environment lines. */
export function inputOf(f: ServerForm): { input: MCPServerInput } | { error: string } {
  const env: Record<string, string> = {};
  for (const line of lines(f.env)) {
    const eq = line.indexOf('=');
    if (eq <= 0) return { error: `The environment line "${line}" is not KEY=value.` };
    env[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  const stdio = f.transport === 'stdio';
  return {
    input: {
      id: f.id,
      name: f.name.trim(),
      transport: f.transport,
      command: stdio ? f.command.trim() : '',
      args: stdio ? lines(f.args) : [],
      env: stdio ? env : {},
      url: stdio ? '' : f.url.trim(),
      enabled: f.enabled,
    },
  };
}

/** How a server's status reads. */
export function statusText(s: MCPServerState): string {
  switch (s.status) {
    case 'starting':
      return 'Starting…';
    case 'ready':
      return `Ready · ${s.tools.filter((t) => !t.refused).length} tools`;
    case 'failed':
      return `Failed: ${s.reason ?? 'unknown reason'}`;
    default:
      return 'Disabled';
  }
}

export const RISK_LABELS: Record<string, string> = {
  read_only: 'Read-only',
  writes: 'Writes',
  destructive: 'Destructive',
};

// What a tool call's row says: where the call is (waiting for approval,
// running, done) and how it ended. Pure, so the wording is unit-tested.
import type { Message, Task, ToolOutcome } from '../../api/types';
import { parseArgs } from './transcript';

export type CallState = 'approval' | 'running' | 'open' | 'done' | 'failed' | ToolOutcome;

/** Where a call is: from its result once there is one, else from its task. */
export function callState(callId: string, result: Message | undefined, task: Task | undefined): CallState {
  if (result) {
    if (result.outcome) return result.outcome;
    return result.isError ? 'failed' : 'done';
  }
  const approval = task?.pendingApproval?.callId;
  // A local network approval's id is the call's id + "@" + the address.
  if (approval === callId || approval?.startsWith(`${callId}@`)) return 'approval';
  if (task?.currentCallId === callId) return 'running';
  return 'open';
}

/** The call's gist for its row: run_command's command, else nothing. */
export function callGist(name: string, args: string): string {
  if (name !== 'run_command') return '';
  const cmd = parseArgs(args)?.command;
  if (typeof cmd !== 'string') return '';
  const line = cmd.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

const LEADS: Record<CallState, string> = {
  approval: 'Waiting for approval:',
  running: 'Running',
  open: 'Tool call',
  done: 'Used tool',
  failed: 'Failed:',
  denied: 'Denied by you:',
  stopped: 'Stopped:',
  cut_off: 'Cut off:',
};

/** "Denied by you: write_file", "Used tool run_command: ls -la". */
export function callLabel(name: string, state: CallState, gist = ''): string {
  return `${LEADS[state]} ${name}${gist ? `: ${gist}` : ''}`;
}

/** A question that got no answer: how it ended. */
export function questionEndLabel(outcome: ToolOutcome | ''): string {
  if (outcome === 'stopped') return 'Question stopped: the task was stopped';
  if (outcome === 'cut_off') return 'Question cut off: Errand closed';
  return 'Question failed';
}

// What a tool call's row says: where the call is (waiting for approval,
// running, done) and how it ended. Pure, so the wording is unit-tested.
import type { Message, Task, ToolOutcome } from '../../api/types';
import { parseObject } from '../../lib/json';

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

/**
 * The call's gist for its row: run_command's command, a plan's progress,
 * a reflection's verdict; else nothing.
 */
export function callGist(name: string, args: string): string {
  const a = parseObject(args);
  switch (name) {
    case 'run_command':
      return typeof a?.command === 'string' ? short(a.command) : '';
    case 'update_plan': {
      const steps = Array.isArray(a?.steps) ? (a.steps as { status?: unknown }[]) : null;
      return steps ? `${steps.filter((s) => s?.status === 'done').length} of ${steps.length} steps done` : '';
    }
    case 'reflect': {
      if (typeof a?.goal_achieved !== 'boolean') return '';
      const issues = Array.isArray(a.issues) ? a.issues.filter((i): i is string => typeof i === 'string') : [];
      return a.goal_achieved ? 'goal achieved' : short(`goal not achieved — ${issues.join('; ')}`);
    }
  }
  return '';
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
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
  // task_complete's outcomes: never a tool row of its own (see CompleteRow).
  checking: 'Checking:',
  unmet: 'Not accepted:',
  unchecked: 'Used tool',
  incomplete: 'Used tool',
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

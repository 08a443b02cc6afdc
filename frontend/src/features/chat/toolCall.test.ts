import { describe, expect, it } from 'vitest';
import { message, task } from '../../test/fixtures';
import { callGist, callLabel, callState, questionEndLabel } from './toolCall';

const C = 'c';
const result = (over: Parameters<typeof message>[2] = {}) => message('r', C, { role: 'tool', toolCallId: 'k', ...over });

describe('a tool call row says what happened', () => {
  it('waiting for approval, running, and each way it ended', () => {
    const waiting = task('t', C, {
      status: 'waiting_approval',
      pendingApproval: { callId: 'k', tool: 'write_file', risk: 'writes', arguments: '{}' },
    });
    expect(callLabel('write_file', callState('k', undefined, waiting))).toBe('Waiting for approval: write_file');
    const local = task('t', C, {
      status: 'waiting_approval',
      pendingApproval: { callId: 'k@127.0.0.1:80', tool: 'fetch_url', risk: 'local_network', arguments: '' },
    });
    expect(callState('k', undefined, local)).toBe('approval');
    const running = task('t', C, { status: 'tool_executing', currentCallId: 'k' });
    expect(callLabel('run_command', callState('k', undefined, running))).toBe('Running run_command');

    expect(callLabel('write_file', callState('k', result({ isError: true, outcome: 'denied' }), undefined))).toBe(
      'Denied by you: write_file',
    );
    expect(callLabel('run_command', callState('k', result({ isError: true, outcome: 'stopped' }), undefined))).toBe(
      'Stopped: run_command',
    );
    expect(callLabel('run_command', callState('k', result({ isError: true, outcome: 'cut_off' }), undefined))).toBe(
      'Cut off: run_command',
    );
    expect(callLabel('read_file', callState('k', result({ isError: true }), undefined))).toBe('Failed: read_file');
    expect(callLabel('read_file', callState('k', result(), undefined))).toBe('Used tool read_file');
  });

  it('a command shows itself in the row', () => {
    expect(callGist('run_command', '{"command":"ls -la\\n && echo done"}')).toBe('ls -la && echo done');
    expect(callGist('read_file', '{"path":"a"}')).toBe('');
    expect(callLabel('run_command', 'done', 'ls')).toBe('Used tool run_command: ls');
  });

  it('a question cancelled with its task says stopped, not failed', () => {
    expect(questionEndLabel('stopped')).toMatch(/^Question stopped/);
    expect(questionEndLabel('cut_off')).toMatch(/^Question cut off/);
    expect(questionEndLabel('')).toBe('Question failed');
  });
});

describe('plan and reflection rows', () => {
  it('say how far the plan is and what the reflection found', () => {
    const steps = '[{"title":"a","status":"done"},{"title":"b","status":"pending"}]';
    expect(callLabel('update_plan', 'done', callGist('update_plan', `{"steps":${steps}}`))).toBe('Used tool update_plan: 1 of 2 steps done');
    expect(callGist('reflect', '{"goal_achieved":true,"issues":[]}')).toBe('goal achieved');
    expect(callGist('reflect', '{"goal_achieved":false,"issues":["no title","no date"]}')).toBe('goal not achieved — no title; no date');
    expect(callGist('reflect', 'not json')).toBe('');
  });
});

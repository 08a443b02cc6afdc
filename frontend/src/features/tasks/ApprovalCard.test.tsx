import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../api/types';
import { message, resetStores, summary, task } from '../../test/fixtures';
import { fakeClock } from '../../test/fakeClock';

import * as api from '../../api';
import { useConversationsStore } from '../../stores/conversations';
import { useMessagesStore } from '../../stores/messages';
import { MessageList } from '../chat/MessageList';
import { handleTaskUpdate } from '../../stores/sync';
import { Composer } from '../chat/Composer';
import { AgentPanel } from './AgentPanel';

const C = 'c1';

const WRITE: Approval = {
  callId: 'call_1',
  tool: 'write_file',
  risk: 'writes',
  arguments: '{\n  "content": "Hello from Errand",\n  "path": "hello.txt"\n}',
  preview: '--- a/hello.txt\n+++ b/hello.txt\n@@ -0,0 +1 @@\n+Hello from Errand\n-old line\n context\n',
};

const COMMAND: Approval = {
  callId: 'call_2',
  tool: 'run_command',
  risk: 'destructive',
  arguments: '{"command":"rm -rf build && make","timeout_seconds":30}',
};

const LOCAL: Approval = {
  callId: 'call_3@192.168.1.20:8080',
  tool: 'fetch_url',
  risk: 'local_network',
  address: '192.168.1.20:8080',
  arguments: 'http://192.168.1.20:8080/admin?x=1',
  preview:
    'fetch_url wants to reach 192.168.1.20:8080, an address on this computer or your local network (http://192.168.1.20:8080/admin?x=1). ' +
    'Local services are not meant for the internet; allow it only if you expect this.',
};

const NETWORK: Approval = {
  callId: 'call_4@network',
  tool: 'run_command',
  risk: 'network',
  sandbox: 'sandboxed',
  arguments: '',
  preview: 'run_command runs commands in a sandbox without the network. This command asks for it.',
};

function waitForApproval(approval: Approval = WRITE, id = 't1') {
  act(() =>
    handleTaskUpdate(
      task(id, C, { status: 'waiting_approval', stepCount: 2, currentTool: approval.tool, pendingApproval: approval }),
    ),
  );
}

function card() {
  return screen.getByRole('region', { name: 'Approval needed' });
}

function setup() {
  const user = userEvent.setup({ delay: null });
  render(
    <>
      <AgentPanel conversationId={C} />
      <Composer conversationId={C} />
    </>,
  );
  return user;
}

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  fakeClock();
  vi.mocked(api.approveTool).mockResolvedValue(undefined);
  vi.mocked(api.denyTool).mockResolvedValue(undefined);
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('ApprovalCard', () => {
  it('shows the tool, its risk, its full arguments and the diff', () => {
    setup();
    expect(screen.queryByRole('region', { name: 'Approval needed' })).not.toBeInTheDocument();
    waitForApproval();
    const c = card();
    expect(within(c).getByText('write_file')).toBeInTheDocument();
    expect(within(c).getByText('Writes files')).toBeInTheDocument();
    expect(c).toHaveTextContent(/creates or changes files in this conversation's workspace folder/);
    const args = within(c).getByLabelText('Arguments');
    expect(args.textContent).toContain('"path": "hello.txt"');
    expect(args.textContent).toContain('"content": "Hello from Errand"');
    const diff = within(c).getByLabelText('What it would change');
    expect(diff.querySelector('.diff-add')).toHaveTextContent('+Hello from Errand');
    expect(diff.querySelector('.diff-del')).toHaveTextContent('-old line');
    expect(diff.querySelector('.diff-hunk')).toHaveTextContent('@@ -0,0 +1 @@');
    expect(diff.querySelectorAll('.diff-file')).toHaveLength(2);
    for (const name of ['Approve', 'Approve for this task', 'Deny', 'Stop']) {
      expect(within(c).getByRole('button', { name })).toBeInTheDocument();
    }
  });

  it('shows a command prominently and says honestly that it can change anything', () => {
    setup();
    waitForApproval(COMMAND);
    const c = card();
    expect(within(c).getByLabelText('Command')).toHaveTextContent('$ rm -rf build && make');
    expect(within(c).getByText('Destructive')).toBeInTheDocument();
    expect(c).toHaveTextContent(/can change or delete any of your files, not only those in the workspace/);
    expect(c).toHaveTextContent('Times out after 30 s');
  });

  it('a local network address: asks plainly, shows the address, the URL and why, and offers no approval for the task', async () => {
    const user = setup();
    waitForApproval(LOCAL);
    const c = card();
    expect(within(c).getByRole('heading', { name: 'Reach a local network address?' })).toBeInTheDocument();
    expect(within(c).getByText('Local network')).toBeInTheDocument();
    expect(c.querySelector('.approval-address')).toHaveTextContent(/^192\.168\.1\.20:8080$/);
    expect(c.querySelector('.approval-url')).toHaveTextContent(/^http:\/\/192\.168\.1\.20:8080\/admin\?x=1$/);
    expect(within(c).getByText(LOCAL.preview!)).toBeInTheDocument();
    expect(c).toHaveTextContent(/Errand asks every time/);
    // Not a diff, not JSON.
    expect(within(c).queryByLabelText('What it would change')).not.toBeInTheDocument();
    expect(within(c).queryByLabelText('Arguments')).not.toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Approve for this task' })).not.toBeInTheDocument();
    for (const name of ['Approve', 'Deny', 'Stop']) {
      expect(within(c).getByRole('button', { name })).toBeInTheDocument();
    }

    act(() => vi.advanceTimersByTime(500));
    await user.click(within(c).getByRole('button', { name: 'Approve' }));
    expect(api.approveTool).toHaveBeenCalledWith('t1', LOCAL.callId, false);
  });

  it('a command says whether it runs in the sandbox', () => {
    setup();
    waitForApproval({ ...COMMAND, sandbox: 'sandboxed' });
    expect(within(card()).getByRole('note', { name: 'Sandboxed' })).toHaveTextContent(/write only in the workspace/);
    expect(within(card()).queryByRole('note', { name: 'Not sandboxed' })).not.toBeInTheDocument();
    waitForApproval({ ...COMMAND, callId: 'call_5', sandbox: 'not_sandboxed' });
    expect(within(card()).getByRole('note', { name: 'Not sandboxed' })).toHaveTextContent(/your whole disk/);
    expect(within(card()).queryByRole('note', { name: 'Sandboxed' })).not.toBeInTheDocument();
  });

  it('the network card allows the network for the task, or denies it', async () => {
    const user = setup();
    waitForApproval(NETWORK);
    const c = card();
    expect(within(c).getByRole('heading', { name: 'Allow the network?' })).toBeInTheDocument();
    expect(within(c).getByText(NETWORK.preview!)).toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Approve for this task' })).not.toBeInTheDocument();
    expect(within(c).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(c).getByRole('button', { name: 'Allow network for this task' }));
    expect(api.approveTool).toHaveBeenCalledWith('t1', NETWORK.callId, false);

    waitForApproval({ ...NETWORK, callId: 'call_6@network' });
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    expect(api.denyTool).toHaveBeenCalledWith('t1', 'call_6@network', '');
  });

  it('a local network address can be denied with a reason', async () => {
    const user = setup();
    waitForApproval(LOCAL);
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    await user.type(within(card()).getByRole('textbox', { name: /Reason/ }), 'Not my router');
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    expect(api.denyTool).toHaveBeenCalledWith('t1', LOCAL.callId, 'Not my router');
  });

  it('a local network approval without an address names the host of its URL', () => {
    setup();
    waitForApproval({ ...LOCAL, address: undefined, arguments: '{"url":"http://[::1]:3000/"}' });
    const c = card();
    expect(c.querySelector('.approval-address')).toHaveTextContent(/^\[::1\]:3000$/);
    expect(c.querySelector('.approval-url')).toHaveTextContent(/^http:\/\/\[::1\]:3000\/$/);
  });

  it('ignores clicks and Enter for half a second after it appears, then approves', async () => {
    const user = setup();
    waitForApproval();
    const approve = within(card()).getByRole('button', { name: 'Approve' });
    expect(approve).toHaveAttribute('aria-disabled', 'true');

    await user.click(approve);
    approve.focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    act(() => vi.advanceTimersByTime(300));
    await user.click(approve);
    expect(api.approveTool).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(200));
    expect(approve).toHaveAttribute('aria-disabled', 'false');
    approve.focus();
    await user.keyboard('{Enter}');
    expect(api.approveTool).toHaveBeenCalledTimes(1);
    expect(api.approveTool).toHaveBeenCalledWith('t1', 'call_1', false);
  });

  it('a click after the guard approves; "Approve for this task" approves the tool for the task', async () => {
    const user = setup();
    waitForApproval();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Approve for this task' }));
    expect(api.approveTool).toHaveBeenCalledWith('t1', 'call_1', true);
  });

  it('a new call re-arms the guard', async () => {
    const user = setup();
    waitForApproval();
    act(() => vi.advanceTimersByTime(600));
    waitForApproval({ ...WRITE, callId: 'call_9' });
    await user.click(within(card()).getByRole('button', { name: 'Approve' }));
    expect(api.approveTool).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Approve' }));
    expect(api.approveTool).toHaveBeenCalledWith('t1', 'call_9', false);
  });

  it('Deny opens an optional reason, and Deny sends it', async () => {
    const user = setup();
    waitForApproval();
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    // Too soon: nothing opens.
    expect(within(card()).queryByRole('textbox')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    const reason = within(card()).getByRole('textbox', { name: /Reason/ });
    expect(reason).toHaveFocus();
    expect(within(card()).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await user.type(reason, 'Not that file');
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    expect(api.denyTool).toHaveBeenCalledWith('t1', 'call_1', 'Not that file');
  });

  it('Deny without a reason, by Enter in the reason field', async () => {
    const user = setup();
    waitForApproval();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    await user.keyboard('{Enter}');
    expect(api.denyTool).toHaveBeenCalledWith('t1', 'call_1', '');
  });

  it('Cancel closes the reason field without denying', async () => {
    const user = setup();
    waitForApproval();
    act(() => vi.advanceTimersByTime(500));
    await user.click(within(card()).getByRole('button', { name: 'Deny' }));
    await user.click(within(card()).getByRole('button', { name: 'Cancel' }));
    expect(within(card()).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(api.denyTool).not.toHaveBeenCalled();
  });

  it('Stop releases it at once, with no guard, and it is the only Stop', async () => {
    vi.mocked(api.stopTask).mockResolvedValue({
      stopped: true,
      task: task('t1', C, { status: 'cancelled' }),
      message: 'Stopped',
    });
    const user = setup();
    waitForApproval();
    expect(screen.getAllByRole('button', { name: 'Stop' })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(api.stopTask).toHaveBeenCalledWith('t1');
    expect(screen.queryByRole('region', { name: 'Approval needed' })).not.toBeInTheDocument();
  });

  it('while the approval waits, a message is queued, and Send now delivers it', async () => {
    const user = setup();
    waitForApproval();
    vi.mocked(api.queueMessage).mockResolvedValue(message('q1', C, { role: 'user', delivery: 'queued', taskId: 't1', content: 'Use b.txt' }));
    vi.mocked(api.sendNow).mockResolvedValue(undefined);
    useMessagesStore.getState().beginLoad(C);
    useMessagesStore.getState().finishLoad(C, []);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toBeEnabled();
    await user.type(box, 'Use b.txt{Enter}');
    expect(api.queueMessage).toHaveBeenCalledWith(C, 'Use b.txt');
    expect(api.denyTool).not.toHaveBeenCalled();
    render(<MessageList conversationId={C} />);
    await user.click(screen.getByRole('button', { name: 'Send now' }));
    expect(api.sendNow).toHaveBeenCalledWith(C, 'q1');
    act(() => handleTaskUpdate(task('t1', C, { status: 'tool_executing', stepCount: 2, currentTool: 'write_file' })));
    expect(screen.queryByRole('region', { name: 'Approval needed' })).not.toBeInTheDocument();
  });
});

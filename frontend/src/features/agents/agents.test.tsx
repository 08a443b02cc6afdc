import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import type { AgentDefinition, FormField } from '../../api/types';
import { useAgentsStore } from '../../stores/agents';
import { useConversationsStore } from '../../stores/conversations';
import { handleTaskUpdate } from '../../stores/sync';
import { sendMessage } from '../../stores/actions';
import { Composer } from '../chat/Composer';
import { AgentPicker } from './AgentPicker';
import { blankAgent, slugify } from './AgentsSection';
import { formAnswer, LiveQuestion } from './QuestionWidget';

const C = 'c1';

function agent(over: Partial<AgentDefinition>): AgentDefinition {
  return { ...blankAgent(), builtIn: true, ...over };
}

const AGENTS = [
  agent({ id: 'errand', name: 'Errand', allTools: true }),
  agent({ id: 'interviewer', name: 'Interviewer', mode: 'proactive', canUserType: false, allowEarlyTermination: true }),
];

const FIELDS: FormField[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'age', label: 'Age', type: 'number' },
  { name: 'role', label: 'Role', type: 'select', options: ['Dev', 'Ops'] },
  { name: 'ok', label: 'Agree', type: 'boolean' },
  { name: 'stars', label: 'Stars', type: 'rating', min: 1, max: 5 },
];

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  useAgentsStore.getState().set(AGENTS);
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

describe('the widgets of a question', () => {
  it('a form is a group named by its question, usable by keyboard, and a refused answer shows its error there', async () => {
    handleTaskUpdate(task('t', C, { status: 'waiting_user', pendingQuestion: 'About you', pendingFields: FIELDS, input: { disabled: true } }));
    vi.mocked(api.userResponse).mockRejectedValueOnce(new ApiError('invalid', 'Name is required')).mockResolvedValue(undefined);
    const user = userEvent.setup();
    render(<LiveQuestion taskId="t" question="About you" />);
    const form = screen.getByRole('group', { name: 'About you' });

    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(api.userResponse).toHaveBeenLastCalledWith('t', '{"ok":false}');
    expect(await within(form).findByRole('alert')).toHaveTextContent('Name is required');

    await user.click(within(form).getByRole('textbox', { name: 'Name' }));
    await user.keyboard('Ann');
    await user.tab();
    await user.keyboard('41');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'Ops');
    await user.click(within(form).getByRole('checkbox', { name: 'Agree' }));
    await user.click(within(within(form).getByRole('group', { name: 'Stars' })).getByRole('radio', { name: '4' }));
    await user.click(within(form).getByRole('button', { name: 'Submit' }));
    expect(api.userResponse).toHaveBeenLastCalledWith('t', '{"name":"Ann","age":41,"role":"Ops","ok":true,"stars":4}');
    await waitFor(() => expect(within(form).queryByRole('alert')).toHaveTextContent(''));
  });

  it('one-click choices with Other, and several choices answered as a JSON array', async () => {
    vi.mocked(api.userResponse).mockResolvedValue(undefined);
    handleTaskUpdate(task('t', C, { status: 'waiting_user', pendingQuestion: 'Topic?', pendingChoices: ['A', 'B'], pendingAllowOther: true }));
    const user = userEvent.setup();
    const { unmount } = render(<LiveQuestion taskId="t" question="Topic?" />);
    const group = screen.getByRole('group', { name: 'Suggested answers' });
    await user.click(within(group).getByRole('button', { name: 'B' }));
    expect(api.userResponse).toHaveBeenLastCalledWith('t', 'B');
    await user.type(within(group).getByRole('textbox', { name: 'Other' }), 'Chess{Enter}');
    expect(api.userResponse).toHaveBeenLastCalledWith('t', 'Chess');
    unmount();

    handleTaskUpdate(task('t2', 'c2', { status: 'waiting_user', pendingQuestion: 'Which?', pendingChoices: ['A', 'B', 'C'], pendingMultiple: true }));
    render(<LiveQuestion taskId="t2" question="Which?" />);
    const multi = screen.getByRole('group', { name: 'Which?' });
    await user.click(within(multi).getByRole('checkbox', { name: 'C' }));
    await user.click(within(multi).getByRole('checkbox', { name: 'A' }));
    await user.click(within(multi).getByRole('button', { name: 'Submit' }));
    expect(api.userResponse).toHaveBeenLastCalledWith('t2', '["A","C"]');
  });

  it('nothing live once the task no longer waits for that question', () => {
    handleTaskUpdate(task('t', C, { status: 'running' }));
    const { container } = render(<LiveQuestion taskId="t" question="About you" />);
    expect(container).toBeEmptyDOMElement();
  });

  it('formAnswer leaves empty fields out and sends numbers as numbers', () => {
    expect(formAnswer(FIELDS, { name: ' x ', age: '', stars: '3' })).toBe('{"name":" x ","ok":false,"stars":3}');
    expect(formAnswer(FIELDS, { age: 'old' })).toBe('{"age":"old","ok":false}');
  });
});

describe('the composer follows the agent', () => {
  it('disabled with the placeholder the question asks for, and End conversation for an agent that allows it', () => {
    useConversationsStore.getState().patch(C, { agentId: 'interviewer' });
    handleTaskUpdate(
      task('t', C, { status: 'waiting_user', agentId: 'interviewer', pendingQuestion: 'Q', input: { disabled: true, placeholder: 'Use the form' } }),
    );
    render(<Composer conversationId={C} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toBeDisabled();
    expect(box).toHaveAttribute('placeholder', 'Use the form');
    expect(screen.getByRole('button', { name: 'End conversation' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
  });

  it('open when the hint says so, even for an agent that holds the composer by default', () => {
    handleTaskUpdate(task('t', C, { status: 'waiting_user', agentId: 'interviewer', pendingQuestion: 'Q', input: { disabled: false } }));
    render(<Composer conversationId={C} />);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  });
});

describe('the agent picker', () => {
  it('is a combobox named Agent; a proactive agent chosen for an empty conversation starts at once', async () => {
    vi.mocked(api.setAgent).mockResolvedValue({ ...summary(C), agentId: 'interviewer' });
    vi.mocked(api.startProactive).mockResolvedValue(task('t', C, { status: 'running', agentId: 'interviewer' }));
    const user = userEvent.setup();
    render(<AgentPicker conversationId={C} />);
    const picker = screen.getByRole('combobox', { name: 'Agent' });
    expect(picker).toHaveValue('errand');
    await user.selectOptions(picker, 'interviewer');
    expect(api.setAgent).toHaveBeenCalledWith(C, 'interviewer');
    await waitFor(() => expect(api.startProactive).toHaveBeenCalledWith(C));
    await waitFor(() => expect(picker).toBeDisabled()); // a task is on: switch between tasks only
  });

  it('a message sent while the agent switch is on its way goes after it, to the agent just chosen', async () => {
    let switched!: (c: ReturnType<typeof summary>) => void;
    vi.mocked(api.setAgent).mockReturnValue(new Promise((resolve) => (switched = resolve)));
    vi.mocked(api.send).mockResolvedValue(task('t', C, { status: 'running' }));
    const user = userEvent.setup();
    render(<AgentPicker conversationId={C} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Agent' }), 'interviewer');
    const sent = sendMessage(C, 'hello');
    await Promise.resolve();
    expect(api.send).not.toHaveBeenCalled();
    switched({ ...summary(C), agentId: 'interviewer' });
    expect(await sent).toBe(true);
    expect(api.send).toHaveBeenCalledWith(C, 'hello');
    expect(vi.mocked(api.setAgent).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(api.send).mock.invocationCallOrder[0]!,
    );
  });

  it('slugify makes an id from a name', () => {
    expect(slugify('  My Reviewer! ')).toBe('my-reviewer');
    expect(slugify('!!!')).toBe('agent');
  });
});

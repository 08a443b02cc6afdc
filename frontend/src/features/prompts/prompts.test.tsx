import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetStores, summary, task } from '../../test/fixtures';

import * as api from '../../api';
import { ApiError } from '../../api/errors';
import type { SavedPrompt } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useConversationsStore } from '../../stores/conversations';
import { Composer } from '../chat/Composer';
import { PromptsSection } from './PromptsSection';
import { slashItems } from './slashMenu';

const C = 'c1';

function prompt(id: string, name: string, text: string): SavedPrompt {
  return { id, name, text, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-01T10:00:00Z' };
}

const REPORT = prompt('p1', 'Weekly report', 'Write my weekly report from these notes:\n- shipped the menu');
const REVIEW = prompt('p2', 'Code review', 'Review this diff for bugs.');

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  vi.mocked(api.listPrompts).mockResolvedValue([REVIEW, REPORT]);
  useConversationsStore.getState().setAll([summary(C)]);
  useConversationsStore.getState().select(C);
});

function composer() {
  const user = userEvent.setup();
  render(<Composer conversationId={C} />);
  return { user, textbox: screen.getByRole('textbox', { name: 'Message' }) };
}

const menu = () => screen.queryByRole('listbox', { name: 'Saved prompts and commands' });
const selected = () => within(menu()!).getByRole('option', { selected: true });

describe('the / menu', () => {
  it('lists the saved prompts, then /task and /chat; the arrows choose and Enter puts the prompt’s text in the box', async () => {
    vi.mocked(api.send).mockResolvedValue(task('t1', C, { status: 'running' }));
    const { user, textbox } = composer();
    expect(menu()).toBeNull();
    await user.type(textbox, '/');
    await waitFor(() => expect(within(menu()!).getAllByRole('option')).toHaveLength(4));
    const names = within(menu()!).getAllByRole('option').map((o) => o.querySelector('.slash-label')?.textContent);
    expect(names).toEqual(['Code review', 'Weekly report', '/task', '/chat']);
    expect(selected()).toHaveTextContent('Code review');
    expect(textbox).toHaveAttribute('aria-activedescendant', selected().id);

    await user.keyboard('{ArrowDown}');
    expect(selected()).toHaveTextContent('Weekly report');
    expect(textbox).toHaveAttribute('aria-activedescendant', selected().id);
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(selected()).toHaveTextContent('/chat'); // wraps around
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(menu()).toBeNull();
    expect(textbox).toHaveValue(REPORT.text);
    expect(api.send).not.toHaveBeenCalled(); // Enter picked; it did not send

    await user.keyboard('{Enter}');
    expect(api.send).toHaveBeenCalledWith(C, REPORT.text);
  });

  it('filters by what follows the /, and picks /task and /chat as commands', async () => {
    const { user, textbox } = composer();
    await user.type(textbox, '/rev');
    await waitFor(() => expect(within(menu()!).getAllByRole('option')).toHaveLength(1));
    expect(selected()).toHaveTextContent('Code review');

    await user.clear(textbox);
    await user.type(textbox, '/ta');
    expect(within(menu()!).getAllByRole('option').map((o) => o.querySelector('.slash-label')?.textContent)).toEqual(['/task']);
    await user.keyboard('{Enter}');
    expect(textbox).toHaveValue('/task ');
    expect(menu()).toBeNull();

    await user.clear(textbox);
    await user.type(textbox, '/');
    await user.click(within(menu()!).getByRole('option', { name: /\/chat/ }));
    expect(textbox).toHaveValue('/chat ');
    expect(textbox).toHaveFocus();
  });

  it('Esc closes the menu and keeps the text; Enter then sends it as typed', async () => {
    vi.mocked(api.send).mockResolvedValue(task('t1', C, { status: 'running' }));
    const { user, textbox } = composer();
    await user.type(textbox, '/task');
    await waitFor(() => expect(menu()).not.toBeNull());
    await user.keyboard('{Escape}');
    expect(menu()).toBeNull();
    expect(textbox).toHaveValue('/task');
    await user.type(textbox, ' plan my week{Enter}');
    expect(api.send).toHaveBeenCalledWith(C, '/task plan my week');
  });

  it('shows nothing for text that is not a / on one line', () => {
    expect(slashItems('hello /task', [REVIEW])).toBeNull();
    expect(slashItems('/x\ny', [REVIEW])).toBeNull();
    expect(slashItems('/zzz', [REVIEW])).toBeNull();
    expect(slashItems('/', [])?.map((i) => i.label)).toEqual(['/task', '/chat']);
  });
});

describe('Settings → Prompts', () => {
  function section() {
    const user = userEvent.setup();
    render(
      <>
        <PromptsSection />
        <ConfirmDialog />
      </>,
    );
    return { user, region: screen.getByRole('region', { name: 'Prompts' }) };
  }

  it('creates, renames and edits prompts; Go’s refusal is shown at its field and nothing changes', async () => {
    const { user, region } = section();
    await within(region).findByRole('listitem', { name: 'Code review' });

    await user.click(within(region).getByRole('button', { name: 'New prompt' }));
    vi.mocked(api.createPrompt).mockRejectedValueOnce(
      new ApiError('conflict', 'There is already a prompt named "Code review"; choose another name.', undefined, 'name'),
    );
    await user.type(within(region).getByRole('textbox', { name: 'Name' }), 'Code review');
    await user.type(within(region).getByRole('textbox', { name: 'Text' }), 'Check it');
    await user.click(within(region).getByRole('button', { name: 'Save prompt' }));
    expect(await within(region).findByRole('alert')).toHaveTextContent('There is already a prompt named "Code review"');
    const name = within(region).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(region).getByRole('textbox', { name: 'Text' })).not.toHaveAttribute('aria-invalid');

    vi.mocked(api.createPrompt).mockResolvedValueOnce(prompt('p3', 'Check', 'Check it'));
    vi.mocked(api.listPrompts).mockResolvedValue([prompt('p3', 'Check', 'Check it'), REVIEW, REPORT]);
    await user.clear(name);
    await user.type(name, 'Check');
    await user.click(within(region).getByRole('button', { name: 'Save prompt' }));
    expect(api.createPrompt).toHaveBeenLastCalledWith('Check', 'Check it');
    expect(await within(region).findByRole('listitem', { name: 'Check' })).toBeInTheDocument();

    // Rename and edit Code review.
    await user.click(within(region).getByRole('button', { name: 'Edit Code review' }));
    const item = within(region).getByRole('listitem', { name: 'Code review' });
    expect(within(item).getByRole('textbox', { name: 'Text' })).toHaveValue(REVIEW.text);
    vi.mocked(api.updatePrompt).mockResolvedValueOnce(prompt('p2', 'Review', 'Review it.'));
    vi.mocked(api.listPrompts).mockResolvedValue([REPORT, prompt('p2', 'Review', 'Review it.')]);
    await user.clear(within(item).getByRole('textbox', { name: 'Name' }));
    await user.type(within(item).getByRole('textbox', { name: 'Name' }), 'Review');
    await user.clear(within(item).getByRole('textbox', { name: 'Text' }));
    await user.type(within(item).getByRole('textbox', { name: 'Text' }), 'Review it.');
    await user.click(within(item).getByRole('button', { name: 'Save prompt' }));
    expect(api.updatePrompt).toHaveBeenCalledWith('p2', 'Review', 'Review it.');
    expect(await within(region).findByRole('listitem', { name: 'Review' })).toHaveTextContent('Review it.');
  });

  it('deletes a prompt only after the person confirms', async () => {
    const { user, region } = section();
    await user.click(await within(region).findByRole('button', { name: 'Delete Code review' }));
    const ask = screen.getByRole('alertdialog', { name: 'Delete the prompt Code review?' });
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(api.deletePrompt).not.toHaveBeenCalled();

    vi.mocked(api.deletePrompt).mockResolvedValueOnce();
    vi.mocked(api.listPrompts).mockResolvedValue([REPORT]);
    await user.click(within(region).getByRole('button', { name: 'Delete Code review' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete prompt' }));
    expect(api.deletePrompt).toHaveBeenCalledWith('p2');
    await waitFor(() => expect(within(region).queryByRole('listitem', { name: 'Code review' })).not.toBeInTheDocument());
  });
});

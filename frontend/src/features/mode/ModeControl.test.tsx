import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ModeControl } from './ModeControl';

describe('ModeControl', () => {
  it('is a radio group named Mode with Auto, Agent and Chat, the current one checked', () => {
    render(<ModeControl value="auto" onChange={() => {}} />);
    const group = screen.getByRole('radiogroup', { name: 'Mode' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['auto', 'agent', 'chat']);
    expect(within(group).getByRole('radio', { name: 'Auto' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Agent' })).not.toBeChecked();
  });

  it('a click or the arrow keys choose another mode', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { rerender } = render(<ModeControl value="auto" onChange={onChange} />);
    await user.click(screen.getByRole('radio', { name: 'Chat' }));
    expect(onChange).toHaveBeenLastCalledWith('chat');

    rerender(<ModeControl value="chat" onChange={onChange} />);
    screen.getByRole('radio', { name: 'Chat' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(onChange).toHaveBeenLastCalledWith('agent');
  });

  it('while disabled nothing changes', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<ModeControl value="agent" disabled onChange={onChange} />);
    await user.click(screen.getByRole('radio', { name: 'Auto' }));
    expect(onChange).not.toHaveBeenCalled();
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fact, FactsChangedEvent } from '../../api/types';

import * as api from '../../api';
import { settings } from '../../test/fixtures';
import { ApiError } from '../../api/errors';
import * as events from '../../events';
import { startSync } from '../../stores/sync';
import { resetStores } from '../../test/fixtures';
import { ConversationMemory } from './ConversationMemory';
import { MemorySection } from './MemorySection';
import { MemoryView } from './MemoryView';

function fact(id: string, key: string, value: string, conversationId = ''): Fact {
  return {
    id,
    key,
    value,
    scope: conversationId ? 'conversation' : 'global',
    conversationId,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:00Z',
  };
}

/** Go's agent:factsChanged event, delivered through the stores' subscription (startSync). */
function factsChanged(payload: FactsChangedEvent): void {
  const handler = vi.mocked(events.onFactsChanged).mock.calls.at(-1)?.[0];
  if (!handler) throw new Error('nothing subscribed to agent:factsChanged');
  handler(payload);
}

const GLOBAL = fact('g1', 'name', 'Ada');
const OWN = fact('c1', 'language', 'Go', 'conv-1');

function section(over: { enabled?: boolean; onToggle?: (on: boolean) => Promise<void> } = {}) {
  const onToggle = over.onToggle ?? vi.fn(async () => {});
  render(<MemorySection enabled={over.enabled ?? true} onToggle={onToggle} />);
  return { user: userEvent.setup(), onToggle };
}

/** A conversation's memory (the header's panel): its facts and the global ones. */
function view() {
  render(<MemoryView conversationId="conv-1" />);
  return { user: userEvent.setup() };
}

let stopSync = () => {};
beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
  stopSync = startSync();
  vi.mocked(api.listFacts).mockResolvedValue([OWN, GLOBAL]);
});

afterEach(() => stopSync());

describe('Memory', () => {
  it('lists the conversation’s facts and the global ones under a Memory heading', async () => {
    view();
    const own = await screen.findByRole('list', { name: 'This conversation' });
    expect(within(own).getByText('language')).toBeInTheDocument();
    expect(within(own).getByText('Go')).toBeInTheDocument();
    const global = screen.getByRole('list', { name: 'All conversations' });
    expect(within(global).getByText('Ada')).toBeInTheDocument();
    expect(api.listFacts).toHaveBeenCalledWith('conv-1');
    const edits = screen.getAllByRole('button', { name: 'Edit fact' });
    expect(edits).toHaveLength(2);
    expect(edits[0]).toHaveAccessibleDescription('language');
    expect(screen.getAllByRole('button', { name: 'Delete fact' })).toHaveLength(2);
  });

  it('adds a fact, and shows the reason Go refuses one with Copy details', async () => {
    const { user } = view();
    await screen.findByText('Ada');
    vi.mocked(api.addFact).mockRejectedValueOnce(
      new ApiError('invalid', 'The value of "openai" looks like a secret (it has the shape of an API key).', undefined, 'value'),
    );
    await user.click(screen.getByRole('button', { name: 'Add fact' }));
    await user.type(screen.getByLabelText('Key'), 'openai');
    await user.type(screen.getByLabelText('Value'), 'sk-something');
    await user.click(screen.getByRole('button', { name: 'Save fact' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The value of "openai" looks like a secret (it has the shape of an API key).',
    );
    expect(screen.getByLabelText('Value')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Key')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('button', { name: 'Copy details' })).toBeInTheDocument();

    vi.mocked(api.addFact).mockResolvedValueOnce(fact('g2', 'editor', 'helix'));
    vi.mocked(api.listFacts).mockResolvedValue([OWN, GLOBAL, fact('g2', 'editor', 'helix')]);
    await user.clear(screen.getByLabelText('Key'));
    await user.type(screen.getByLabelText('Key'), 'editor');
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), 'helix');
    await user.selectOptions(screen.getByLabelText('Remember for'), 'All conversations');
    await user.click(screen.getByRole('button', { name: 'Save fact' }));
    expect(api.addFact).toHaveBeenLastCalledWith({ key: 'editor', value: 'helix', scope: 'global', conversationId: '' });
    expect(await screen.findByText('helix')).toBeInTheDocument();
    expect(screen.queryByLabelText('Key')).not.toBeInTheDocument();
  });

  it('edits a fact in place', async () => {
    const { user } = view();
    await screen.findByText('Ada');
    const global = screen.getByRole('list', { name: 'All conversations' });
    await user.click(within(global).getByRole('button', { name: 'Edit fact' }));
    expect(screen.getByLabelText('Key')).toHaveValue('name');
    vi.mocked(api.updateFact).mockResolvedValueOnce({ ...GLOBAL, value: 'Ada Lovelace' });
    vi.mocked(api.listFacts).mockResolvedValue([OWN, { ...GLOBAL, value: 'Ada Lovelace' }]);
    await user.clear(screen.getByLabelText('Value'));
    await user.type(screen.getByLabelText('Value'), 'Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Save fact' }));
    expect(api.updateFact).toHaveBeenCalledWith('g1', { key: 'name', value: 'Ada Lovelace', scope: 'global', conversationId: '' });
    expect(await screen.findByText('Ada Lovelace')).toBeInTheDocument();

    // Esc leaves a form without saving.
    await user.click(within(global).getAllByRole('button', { name: 'Edit fact' })[0]!);
    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('Key')).not.toBeInTheDocument();
    expect(api.updateFact).toHaveBeenCalledTimes(1);
  });

  it('deletes a fact after a confirmation, and keeps it when told to', async () => {
    const { user } = view();
    await screen.findByText('Ada');
    const own = screen.getByRole('list', { name: 'This conversation' });
    await user.click(within(own).getByRole('button', { name: 'Delete fact' }));
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(api.deleteFact).not.toHaveBeenCalled();

    await user.click(within(own).getByRole('button', { name: 'Delete fact' }));
    vi.mocked(api.deleteFact).mockResolvedValueOnce();
    vi.mocked(api.listFacts).mockResolvedValue([GLOBAL]);
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteFact).toHaveBeenCalledWith('c1');
    await waitFor(() => expect(screen.queryByText('language')).not.toBeInTheDocument());
  });

  it('shows why a delete failed', async () => {
    const { user } = view();
    await screen.findByText('Ada');
    vi.mocked(api.deleteFact).mockRejectedValueOnce(new ApiError('not_found', 'No fact with id "g1".'));
    const global = screen.getByRole('list', { name: 'All conversations' });
    await user.click(within(global).getByRole('button', { name: 'Delete fact' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No fact with id "g1".');
  });

  it('turns memory off and on with the Use memory switch', async () => {
    const onToggle = vi.fn(async () => {});
    const { user } = section({ onToggle });
    const sw = screen.getByRole('switch', { name: 'Use memory' });
    expect(sw).toHaveAttribute('aria-checked', 'true');
    await user.click(sw);
    expect(onToggle).toHaveBeenCalledWith(false);
  });

  it('says when the switch could not be saved', async () => {
    const onToggle = vi.fn(async () => {
      throw new ApiError('storage', 'the database is read-only');
    });
    const { user } = section({ enabled: false, onToggle });
    await user.click(screen.getByRole('switch', { name: 'Use memory' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The setting could not be saved: the database is read-only');
  });

  it('reloads when facts change, and shows a load error', async () => {
    view();
    await screen.findByText('Ada');
    vi.mocked(api.listFacts).mockResolvedValue([OWN, fact('g1', 'name', 'Grace')]);
    factsChanged({ conversationId: 'other-conversation' });
    factsChanged({ conversationId: '' });
    expect(await screen.findByText('Grace')).toBeInTheDocument();
    expect(api.listFacts).toHaveBeenCalledTimes(2);

    vi.mocked(api.listFacts).mockRejectedValue(new ApiError('storage', 'The disk is full.', 'write: ENOSPC'));
    factsChanged({ conversationId: 'conv-1' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The disk is full.');
    expect(screen.getByText('Grace')).toBeInTheDocument();
  });
});

describe('Settings → Memory', () => {
  it('lists every conversation’s facts by conversation, filtered by key, value or title', async () => {
    const trip = fact('t1', 'hotel', 'Alfama', 'conv-trip');
    const garden = fact('p1', 'soil', 'clay', 'conv-garden');
    vi.mocked(api.listAllFacts).mockResolvedValue({
      facts: [GLOBAL, garden, trip, fact('u1', 'plant', 'fern', 'conv-new')],
      titles: { 'conv-trip': 'Trip to Lisbon', 'conv-garden': 'Garden', 'conv-new': '' },
    });
    const { user } = section();
    expect(screen.getByRole('heading', { name: 'Memory' })).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Trip to Lisbon' })).toHaveTextContent('Alfama');
    expect(screen.getByRole('list', { name: 'Garden' })).toHaveTextContent('clay');
    expect(screen.getByRole('list', { name: 'Untitled conversation' })).toHaveTextContent('fern');
    expect(screen.getByRole('list', { name: 'All conversations' })).toHaveTextContent('Ada');
    const lists = screen.getAllByRole('list').map((l) => l.getAttribute('aria-labelledby') && l.textContent);
    expect(lists.findIndex((t) => t?.includes('clay'))).toBeLessThan(lists.findIndex((t) => t?.includes('Alfama')));

    const filter = screen.getByRole('searchbox', { name: 'Filter facts' });
    await user.type(filter, 'LISBON');
    expect(screen.getByRole('list', { name: 'Trip to Lisbon' })).toHaveTextContent('Alfama');
    expect(screen.queryByText('clay')).not.toBeInTheDocument();
    expect(screen.queryByText('Ada')).not.toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, 'cla');
    expect(screen.getByText('clay')).toBeInTheDocument();
    expect(screen.queryByText('Alfama')).not.toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, 'nothing like it');
    expect(screen.getByText('No fact matches "nothing like it".')).toBeInTheDocument();

    // A change anywhere reads them again.
    vi.mocked(api.listAllFacts).mockResolvedValue({ facts: [fact('t1', 'hotel', 'Bairro Alto', 'conv-trip')], titles: { 'conv-trip': 'Trip to Lisbon' } });
    await user.clear(filter);
    factsChanged({ conversationId: 'conv-trip' });
    expect(await screen.findByText('Bairro Alto')).toBeInTheDocument();
  });
});

describe('Conversation memory', () => {
  it('opens a panel with the conversation’s facts from the header button', async () => {
    vi.mocked(api.getSettings).mockResolvedValue(settings({
      autoApprove: {},
      limits: { maxSteps: 1, maxMinutes: 1, maxCostUsd: 1 },
      stepDelayMs: 0,
      prices: {},
      memoryEnabled: false,
    }));
    const user = userEvent.setup();
    render(<ConversationMemory conversationId="conv-1" />);
    const button = screen.getByRole('button', { name: 'Memory' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: 'Conversation memory' });
    expect(await within(panel).findByText('language')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Add fact' })).toBeInTheDocument();
    expect(await within(panel).findByRole('note')).toHaveTextContent('Memory is off');
    await user.click(within(panel).getByRole('button', { name: 'Close memory' }));
    expect(screen.queryByRole('region', { name: 'Conversation memory' })).not.toBeInTheDocument();
  });
});

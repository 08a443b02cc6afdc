import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { message, resetStores, task } from '../../test/fixtures';

import * as api from '../../api';
import { useMessagesStore } from '../../stores/messages';
import { useTasksStore } from '../../stores/tasks';
import { ContextMeter } from './ContextMeter';
import { SummaryMarker } from './SummaryMarker';
import { buildTranscript } from './transcript';
import { TranscriptItemView } from './TranscriptItemView';

const C = 'c1';

beforeEach(() => {
  resetStores();
  vi.clearAllMocks();
});

describe('ContextMeter', () => {
  it('shows how full the context was at the last request', () => {
    act(() => useTasksStore.getState().apply(task('t1', C, { status: 'completed', contextTokens: 3120, contextLimit: 8192 }), 'snapshot'));
    render(<ContextMeter conversationId={C} />);
    const meter = screen.getByRole('meter', { name: 'Context' });
    expect(meter).toHaveAttribute('aria-valuenow', '3120');
    expect(meter).toHaveAttribute('aria-valuemin', '0');
    expect(meter).toHaveAttribute('aria-valuemax', '8192');
    expect(meter).toHaveAttribute('title', '3,120 of 8,192 tokens');
  });

  it('is hidden while the size is unknown', () => {
    act(() => useTasksStore.getState().apply(task('t1', C, { status: 'completed' }), 'snapshot'));
    render(<ContextMeter conversationId={C} />);
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('offers no Compact now in a conversation without messages', () => {
    act(() => {
      useMessagesStore.getState().beginLoad(C);
      useMessagesStore.getState().finishLoad(C, []);
    });
    render(<ContextMeter conversationId={C} />);
    expect(screen.queryByRole('button', { name: 'Compact now' })).toBeNull();
  });

  it('Compact now asks Go, and waits while a task runs', async () => {
    act(() => {
      useMessagesStore.getState().beginLoad(C);
      useMessagesStore.getState().finishLoad(C, [message('m1', C, { content: 'Hello' })]);
    });
    vi.mocked(api.compactNow).mockResolvedValue(message('n1', C, { role: 'system', summaryId: 's1' }));
    act(() => useTasksStore.getState().apply(task('t1', C, { status: 'running', contextTokens: 10, contextLimit: 100 }), 'snapshot'));
    const { rerender } = render(<ContextMeter conversationId={C} />);
    expect(screen.getByRole('button', { name: 'Compact now' })).toBeDisabled();

    act(() => useTasksStore.getState().apply(task('t1', C, { status: 'completed', contextTokens: 10, contextLimit: 100, rev: 2 }), 'event'));
    rerender(<ContextMeter conversationId={C} />);
    const button = screen.getByRole('button', { name: 'Compact now' });
    expect(button).toBeEnabled();
    await act(async () => {
      fireEvent.click(button);
    });
    expect(api.compactNow).toHaveBeenCalledWith(C);
  });
});

describe('the summary marker', () => {
  it('a notice with a summary id becomes the marker', () => {
    const items = buildTranscript([
      message('m1', C, { role: 'system', content: 'Earlier messages summarised', summaryId: 's1' }),
      message('m2', C, { role: 'system', content: 'Stopped by user' }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(['summary', 'notice']);
    render(<TranscriptItemView conversationId="c" item={items[0]!} />);
    expect(screen.getByText(/Earlier messages summarised/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show summary' })).toBeInTheDocument();
  });

  it('Show summary opens the summary and the tools run before it', async () => {
    vi.mocked(api.getSummary).mockResolvedValue({
      id: 's1',
      conversationId: C,
      throughSeq: 4,
      text: 'The person asked for an audit of the files.',
      toolLog: '- read_file: succeeded\n- run_command: failed',
      createdAt: '2026-01-01T10:00:00Z',
    });
    render(<SummaryMarker summaryId="s1" />);
    const button = screen.getByRole('button', { name: 'Show summary' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(api.getSummary).toHaveBeenCalledWith('s1');
    const region = screen.getByRole('region', { name: 'Summary' });
    expect(region).toHaveTextContent('The person asked for an audit of the files.');
    expect(region).toHaveTextContent('read_file: succeeded');
    expect(button).toHaveAttribute('aria-expanded', 'true');

    fireEvent.click(button);
    expect(screen.queryByRole('region', { name: 'Summary' })).toBeNull();
  });

  it('a summary that cannot be read says why', async () => {
    vi.mocked(api.getSummary).mockRejectedValue({ code: 'not_found', message: 'summary s1 not found' });
    render(<SummaryMarker summaryId="s1" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show summary' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('not found');
  });
});

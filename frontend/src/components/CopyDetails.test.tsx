import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { errorReportText, reportOf } from '../lib/errorDetails';
import { reportError, useNoticesStore } from '../stores/notices';
import { mockClipboard } from '../test/clipboard';
import { ErrorBoundary } from './ErrorBoundary';
import { Notices } from './Notices';

beforeEach(() => {
  useNoticesStore.getState().reset();
});

describe('error report text', () => {
  it('lists the message, then what is known: code, task, model, time, details', () => {
    const text = errorReportText({
      message: 'The model server failed: 503',
      code: 'model',
      taskId: 't1',
      model: 'gpt-4o-mini',
      time: '2026-01-01T10:05:00Z',
      details: 'POST /v1/chat/completions: 503 Service Unavailable',
    });
    expect(text).toBe(
      [
        'Error: The model server failed: 503',
        'Code: model',
        'Task: t1',
        'Model: gpt-4o-mini',
        'Time: 2026-01-01T10:05:00Z',
        'Details:',
        'POST /v1/chat/completions: 503 Service Unavailable',
      ].join('\n'),
    );
    expect(errorReportText({ message: 'Only this' })).toBe('Error: Only this');
  });

  it('reads any error value', () => {
    expect(reportOf(new ApiError('internal', 'disk full', 'write /data/errand.db: no space'))).toEqual({
      message: 'disk full',
      code: 'internal',
      details: 'write /data/errand.db: no space',
    });
    expect(reportOf('plain', '2026-01-01T00:00:00Z')).toEqual({ message: 'plain', time: '2026-01-01T00:00:00Z' });
  });
});

describe('Notices', () => {
  it('an error notice has Copy details, which copies the message, the code and the details', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    render(<Notices />);
    act(() => reportError(new ApiError('internal', 'Could not save', 'database is locked (SQLITE_BUSY)')));
    const alert = screen.getByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Copy details' }));
    expect(writeText).toHaveBeenCalledTimes(1);
    const text = writeText.mock.calls[0]![0];
    expect(text).toMatch(/^Error: Could not save\nCode: internal\nTime: \d{4}-\d\d-\d\dT[^\n]+\nDetails:\ndatabase is locked \(SQLITE_BUSY\)$/);
    expect(await within(alert).findByText('Copied.')).toBeInTheDocument();
  });

  it('says so when the clipboard refuses', async () => {
    const user = userEvent.setup();
    mockClipboard(true);
    render(<Notices />);
    act(() => reportError(new ApiError('conflict', 'Busy')));
    await user.click(screen.getByRole('button', { name: 'Copy details' }));
    expect(await screen.findByText(/Could not copy/)).toBeInTheDocument();
  });

  it('an information notice has none', () => {
    render(<Notices />);
    act(() => useNoticesStore.getState().push('info', 'Saved.'));
    expect(screen.getByText('Saved.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy details' })).not.toBeInTheDocument();
  });
});

describe('ErrorBoundary', () => {
  it('the crash screen can copy the error', async () => {
    const user = userEvent.setup();
    const writeText = mockClipboard();
    const Boom = () => {
      throw new Error('cannot read x of undefined');
    };
    const quiet = console.error;
    console.error = () => {};
    try {
      render(
        <ErrorBoundary>
          <Boom />
        </ErrorBoundary>,
      );
    } finally {
      console.error = quiet;
    }
    await user.click(screen.getByRole('button', { name: 'Copy details' }));
    expect(writeText.mock.calls[0]![0]).toMatch(/^Error: cannot read x of undefined\nDetails:\n/);
  });
});

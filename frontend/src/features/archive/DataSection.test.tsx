import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import * as api from '../../api';
import { useNoticesStore } from '../../stores/notices';
import { DataSection } from './DataSection';

function Harness({ save }: { save: (on: boolean) => Promise<boolean> }) {
  const [on, setOn] = useState(true);
  return <DataSection notifications={on} onToggle={async (v) => setOn(await save(v))} />;
}

describe('Settings → Notifications and data', () => {
  it('turns notifications off and on, and says when the setting could not be saved', async () => {
    const save = vi.fn(async (v: boolean) => v);
    const { unmount } = render(<Harness save={save} />);
    const box = screen.getByRole('checkbox', { name: 'Desktop notifications' });
    expect(box).toBeChecked();
    await userEvent.click(box);
    await waitFor(() => expect(box).not.toBeChecked());
    expect(save).toHaveBeenLastCalledWith(false);
    unmount();

    render(<Harness save={async () => Promise.reject(new Error('read-only database'))} />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Desktop notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The setting could not be saved: read-only database');
  });

  it('backs up and restores through Go, and says where', async () => {
    vi.mocked(api.exportBackup).mockResolvedValue('/home/me/backup.json');
    vi.mocked(api.restoreBackup).mockResolvedValue('/home/me/restored');
    render(<Harness save={async (v) => v} />);
    await userEvent.click(screen.getByRole('button', { name: 'Back up everything' }));
    await userEvent.click(screen.getByRole('button', { name: 'Restore a backup' }));
    await waitFor(() =>
      expect(useNoticesStore.getState().items.map((n) => n.message)).toEqual([
        'Backed up to /home/me/backup.json',
        'Restored into /home/me/restored. Start Errand with ERRAND_DATA_DIR=/home/me/restored to use it.',
      ]),
    );
  });
});

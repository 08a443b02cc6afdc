import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from '../../api';
import { ApiError } from '../../api/errors';
import { mockClipboard } from '../../test/clipboard';
import { AboutSection } from './AboutSection';

const INFO = {
  version: 'v1.4.2-3-gabc1234',
  dataDir: '/home/ada/.config/Errand',
  logFile: '/home/ada/.config/Errand/logs/errand.log',
  schemaVersion: 26,
  os: 'linux/amd64',
};

beforeEach(() => {
  vi.clearAllMocks();
  vi.mocked(api.aboutInfo).mockResolvedValue(INFO);
});

async function shown() {
  const user = userEvent.setup();
  render(<AboutSection />);
  const section = screen.getByRole('region', { name: 'About' });
  await within(section).findByText('Errand v1.4.2-3-gabc1234');
  return { user, section };
}

describe('Settings → About', () => {
  it('shows the version, the data folder, the log file and the schema', async () => {
    const { section } = await shown();
    expect(within(section).getByText(INFO.dataDir)).toBeInTheDocument();
    expect(within(section).getByText(INFO.logFile)).toBeInTheDocument();
    expect(within(section).getByText('Database schema').nextElementSibling).toHaveTextContent('26');
  });

  it('copies the diagnostics Go gathered, and says so', async () => {
    const { user, section } = await shown();
    const writeText = mockClipboard();
    vi.mocked(api.diagnostics).mockResolvedValue('Errand v1.4.2\nOS: linux/amd64\nProvider: openai, model gpt-4o-mini');

    await user.click(within(section).getByRole('button', { name: 'Copy diagnostics' }));

    expect(writeText).toHaveBeenCalledWith('Errand v1.4.2\nOS: linux/amd64\nProvider: openai, model gpt-4o-mini');
    expect(await within(section).findByText('Diagnostics copied.')).toBeInTheDocument();
  });

  it('opens the data folder, and tells why when it cannot', async () => {
    const { user, section } = await shown();
    vi.mocked(api.openDataFolder).mockRejectedValueOnce(
      new ApiError('internal', 'The data folder (/home/ada/.config/Errand) could not be opened: no file manager'),
    );

    await user.click(within(section).getByRole('button', { name: 'Open data folder' }));

    expect(api.openDataFolder).toHaveBeenCalledTimes(1);
    expect(await within(section).findByRole('alert')).toHaveTextContent('could not be opened: no file manager');
  });

  it('says so when Errand cannot tell about itself', async () => {
    vi.mocked(api.aboutInfo).mockRejectedValue(new ApiError('internal', 'the bridge is down'));
    render(<AboutSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('the bridge is down');
  });
});

import { describe, expect, it } from 'vitest';
import { platformOf } from './platform';

describe('platformOf', () => {
  it('names Linux desktops, whose WebKitGTK pays for every missing font family', () => {
    expect(
      platformOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'),
    ).toBe('linux');
  });

  it('leaves Windows, macOS and Android with the full font stacks', () => {
    expect(
      platformOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Edg/120.0'),
    ).toBe('other');
    expect(platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko)')).toBe(
      'other',
    );
    expect(platformOf('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0')).toBe(
      'other',
    );
  });
});

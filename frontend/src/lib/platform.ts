/**
 * The desktop the window runs on, as the stylesheet needs it: on Linux
 * (WebKitGTK) every font family the page names that is not installed costs
 * a fontconfig search for each style of text, so there the stylesheet names
 * only the desktop's own defaults (`sans-serif`, `monospace`).
 */
export type Platform = 'linux' | 'other';

export function platformOf(userAgent: string): Platform {
  return /Linux/.test(userAgent) && !/Android/.test(userAgent) ? 'linux' : 'other';
}

// index.html marks <html> with it (data-platform) as its head is parsed:
// see the ask-first-screen plugin in vite.config.ts.

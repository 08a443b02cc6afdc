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

/** Marks <html> with the platform (data-platform) before anything renders. */
export function markPlatform(doc: Document = document, userAgent: string = navigator.userAgent): void {
  doc.documentElement.dataset.platform = platformOf(userAgent);
}

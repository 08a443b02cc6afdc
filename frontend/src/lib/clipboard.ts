/**
 * Copies text to the clipboard: the browser's Clipboard API, else the
 * Wails runtime's ClipboardSetText (the desktop window may not expose the
 * Clipboard API), else a hidden textarea and execCommand('copy').
 * Resolves to whether it worked; never rejects.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through
  }
  try {
    const rt = (globalThis as { runtime?: { ClipboardSetText?: (t: string) => Promise<boolean> } }).runtime;
    if (typeof rt?.ClipboardSetText === 'function' && (await rt.ClipboardSetText(text))) return true;
  } catch {
    // fall through
  }
  try {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  } catch {
    return false;
  }
}

import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { showWhenReady } from './features/start/firstScreenCopy';
import { markStart } from './lib/startTimings';
import { startApp } from './stores/actions';
import { useMessagesStore } from './stores/messages';
import './styles/app.css';

/**
 * How long the window waits for the first screen before it shows the shell
 * ("Loading…") and fills it in later; the last first screen's copy, if Go
 * put one into the page, stays over the shell until then.
 */
const SHELL_AFTER_MS = 1000;

declare global {
  interface Window {
    /** Go calls it when the window is idle, just before the web process gives back its memory (app/webmemory). */
    errandCompactMemory?: () => void;
  }
}
window.errandCompactMemory = () => useMessagesStore.getState().compact();

markStart('module');
// Go is asked for the whole first screen now, before React's first render
// (the bindings are there: Wails' runtime script runs before this module),
// so that the first paint is the complete screen.
const ready = startApp();

const root = document.getElementById('root');
if (!root) throw new Error('Errand: #root element missing from index.html');

let rendered = false;
function render(): void {
  if (rendered) return;
  rendered = true;
  const app = createRoot(root!);
  // Rendered in this task: a root's render waits for the scheduler's next
  // task, and the page was idle or did other work meanwhile (the first
  // screen's answer to React's render: 15–57 ms → 6–8 ms in the real window).
  flushSync(() =>
    app.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
showWhenReady(ready, render, SHELL_AFTER_MS);

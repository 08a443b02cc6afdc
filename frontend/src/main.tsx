import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { markPlatform } from './lib/platform';
import { markStart } from './lib/startTimings';
import './styles/app.css';

markStart('module');
markPlatform();

const root = document.getElementById('root');
if (!root) throw new Error('Errand: #root element missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

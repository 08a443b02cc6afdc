import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { markPlatform } from './lib/platform';
import './styles/app.css';

markPlatform();

const root = document.getElementById('root');
if (!root) throw new Error('Errand: #root element missing from index.html');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './lib/i18n';
import './app/styles/global.css';
import { App } from './app/app';

// The Korean web font (issue 17): Noto Sans KR, variable weight, split by unicode-range into ~120 woff2
// slices, so a page downloads only the slices of the characters it shows; font-display: swap. Its
// @font-face rules (23 kB gzip of unicode ranges) are a stylesheet of their own, fetched alongside the
// catalogue instead of blocking the first paint inside the main stylesheet.
void import('@fontsource-variable/noto-sans-kr/wght.css');

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');
/** Render once the active language's catalogue is in (never a flash of bare keys); a failed load still renders. */
function render(): void {
  createRoot(root as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
void i18nReady.then(render, render);

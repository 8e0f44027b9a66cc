import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, newQueryClient } from './App.tsx';
import { apiBaseOfDocument } from './api/base.ts';
import { createApi } from './api/client.ts';
import { ApiConfig } from './api/http.ts';
import { buildRouter } from './router.tsx';
import { applyTheme, initialTheme } from './theme.ts';
import './styles.css';
import './decisions.css';

// The theme before the first paint, so a dark-theme user never sees a light flash.
applyTheme(initialTheme());
const api = createApi(new ApiConfig(apiBaseOfDocument()));
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={api} client={newQueryClient()} router={buildRouter()} />
  </StrictMode>,
);

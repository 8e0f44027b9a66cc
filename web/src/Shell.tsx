import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useApi } from './api/context.tsx';
import { keys } from './api/keys.ts';
import { TokenDialog } from './components/TokenDialog.tsx';
import { rememberSession, useSid } from './session.ts';
import { ThemeContext, useThemeChoice } from './theme.ts';

const PAGES = [
  { to: '/s/$sid', label: 'Home' },
  { to: '/s/$sid/data', label: 'Data' },
  { to: '/s/$sid/scenarios', label: 'Scenarios' },
  { to: '/s/$sid/experiments', label: 'Experiments' },
  { to: '/s/$sid/gates', label: 'Gates' },
  { to: '/s/$sid/schedules', label: 'Schedules' },
  { to: '/s/$sid/compare', label: 'Compare' },
  { to: '/s/$sid/overview', label: 'Overview' },
] as const;

/** The frame of every page: skip link, navigation, session switcher, theme toggle, token prompt. */
export function Shell() {
  const api = useApi();
  const sid = useSid();
  const navigate = useNavigate();
  const [theme, pickTheme] = useThemeChoice();
  const otherTheme = theme === 'dark' ? 'light' : 'dark';
  const [askToken, setAskToken] = useState(false);
  // The Token button only where tokens are needed: /health tells, and a refused request proves it.
  const health = useQuery({ queryKey: keys.health, queryFn: () => api.health(), staleTime: Infinity });
  const [refused, setRefused] = useState(false);
  const tokensOn = health.data?.auth === 'token' || refused || api.config.token !== null;
  useEffect(
    () =>
      api.config.onUnauthorized(() => {
        setRefused(true);
        setAskToken(true);
      }),
    [api],
  );
  useEffect(() => rememberSession(sid), [sid]);
  const sessions = useQuery({ queryKey: keys.sessions, queryFn: () => api.listSessions() });
  const current = sessions.data?.sessions.find((s) => s.id === sid || s.display_name === sid);

  return (
    <ThemeContext.Provider value={theme}>
      <a className="skip-link" href="#content" onClick={(e) => { e.preventDefault(); document.getElementById('content')?.focus(); }}>
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Scenarist
        </Link>
        <nav className="main-nav" aria-label="Main">
          <ul>
            <li>
              <Link to="/" activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }}>
                Sessions
              </Link>
            </li>
            {PAGES.map((p) => (
              <li key={p.to}>
                <Link to={p.to} params={{ sid }} activeOptions={{ exact: p.to === '/s/$sid' }} activeProps={{ 'aria-current': 'page' }}>
                  {p.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="header-tools">
          <label htmlFor="session-switch" className="small">
            Session
          </label>
          <select
            id="session-switch"
            value={current?.id ?? sid}
            onChange={(e) => void navigate({ to: '/s/$sid', params: { sid: e.target.value } })}
          >
            {!current && <option value={sid}>{sid}</option>}
            {sessions.data?.sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.display_name}
              </option>
            ))}
          </select>
          {/* The label says what a press does, whichever theme shows (the system's or a pick): a fixed
              "Dark theme" read as the state to a planner already in dark mode, and switched to light. */}
          <button type="button" onClick={() => pickTheme(otherTheme)}>
            Use {otherTheme} theme
          </button>
          {tokensOn && (
            <button type="button" onClick={() => setAskToken(true)}>
              {api.config.token ? 'Token ✓' : 'Token'}
            </button>
          )}
        </div>
      </header>
      <main id="content" tabIndex={-1}>
        <Outlet />
      </main>
      <TokenDialog open={askToken} onClose={() => setAskToken(false)} />
    </ThemeContext.Provider>
  );
}

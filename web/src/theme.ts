import { createContext, useCallback, useContext, useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';
const THEME_KEY = 'scenarist.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme the user picked, or null: then the page follows the operating system's preference. */
export function savedTheme(): Theme | null {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // storage disabled: nothing was picked
  }
  return null;
}

export function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** The saved choice, else the operating system's preference. */
export function initialTheme(): Theme {
  return savedTheme() ?? systemTheme();
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Only a theme the user picks is saved: until then the page follows the system as it changes. */
function saveTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // not saved; the page still switches
  }
}

/**
 * The theme shown and a way to pick one (docs/ui.md): the system's preference, followed live, until the
 * user picks; the pick is then kept across visits.
 */
export function useThemeChoice(): [Theme, (theme: Theme) => void] {
  const [picked, setPicked] = useState<Theme | null>(savedTheme);
  const [system, setSystem] = useState<Theme>(systemTheme);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia(DARK_QUERY);
    const follow = () => setSystem(query.matches ? 'dark' : 'light');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  const theme = picked ?? system;
  useEffect(() => applyTheme(theme), [theme]);
  const pick = useCallback((next: Theme) => {
    saveTheme(next);
    setPicked(next);
  }, []);
  return [theme, pick];
}

export const ThemeContext = createContext<Theme>('light');
export const useTheme = () => useContext(ThemeContext);

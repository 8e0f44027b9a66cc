import { createContext, useContext } from 'react';

export type Theme = 'light' | 'dark';
const THEME_KEY = 'scenarist.theme';

/** The saved choice, else the operating system's preference. */
export function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // storage disabled: fall through to the OS preference
  }
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // not saved; the page still switches
  }
}

export const ThemeContext = createContext<Theme>('light');
export const useTheme = () => useContext(ThemeContext);

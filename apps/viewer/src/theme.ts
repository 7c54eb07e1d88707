const STORAGE_KEY = 'tfpipe-view-theme';

/** Applies the stored theme, or the system's. */
export function initTheme(): void {
  const stored = localStorage.getItem(STORAGE_KEY);
  const dark = stored === null ? matchMedia('(prefers-color-scheme: dark)').matches : stored === 'dark';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** Switches between the dark and the light theme and remembers the choice. */
export function toggleTheme(): void {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  document.documentElement.dataset.theme = next;
  localStorage.setItem(STORAGE_KEY, next);
}

import type { ThemePreference } from '@shared/domain'

const DARK_QUERY = '(prefers-color-scheme: dark)'

/**
 * Puts the theme on <html> (`data-theme`, which theme.css keys the dark colours on). 'system'
 * follows the OS, and keeps following it while the app is open. Returns the unsubscribe.
 */
export function applyTheme(preference: ThemePreference): () => void {
  const root = document.documentElement
  if (preference !== 'system') {
    root.dataset.theme = preference
    return () => {}
  }
  // jsdom (the renderer tests) has no matchMedia: there the system theme is light.
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null
  const follow = () => {
    root.dataset.theme = media?.matches ? 'dark' : 'light'
  }
  follow()
  media?.addEventListener('change', follow)
  return () => media?.removeEventListener('change', follow)
}

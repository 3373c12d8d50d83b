export const settings = {
  language: 'Language',
  languageSystem: 'System',
  saveFailed: 'Could not save settings: {{message}}',
  loadFailed: 'Could not load settings, using defaults: {{message}}'
}

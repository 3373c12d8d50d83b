export const settingsPage = {
  title: 'Settings',
  open: 'Settings',
  back: 'Back to chat',
  backHint: 'Back to chat (Esc)',
  sections: 'Settings sections',
  models: 'Default model'
}

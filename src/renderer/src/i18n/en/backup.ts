export const backup = {
  title: 'Backups',
  explain:
    'A copy of all conversations, taken while the app runs. One is also taken before an update changes the database and before an import. The newest 10 are kept.',
  now: 'Back up now',
  progress: 'Backup progress',
  restoreFile: 'Restore from a file…',
  restore: 'Restore',
  confirm: 'Replace the current conversations with this backup? They are kept aside, not deleted.',
  restored:
    'Restored {{threads}} conversations ({{messages}} messages). The conversations you had are kept at {{keptAt}}. Reopening…',
  none: 'No backups yet.',
  size: '{{mb}} MB',
  reasons: {
    manual: 'Manual',
    'pre-migration': 'Before an update',
    'pre-import': 'Before an import'
  }
}

export const history = {
  open: 'Import & export',
  title: 'Import and export conversations',
  close: 'Close',
  importHeading: 'Import',
  importHint:
    'A ChatGPT or Claude data export (conversations.json), or a Context Lens JSON export. The format is read from the file’s content. Importing the same file again adds nothing.',
  withBranches:
    'Also bring in abandoned branches (edited questions, regenerated answers) as separate forks',
  chooseFile: 'Choose a file to import…',
  importing: 'Importing {{file}}…',
  progress: '{{conversations}} conversations, {{messages}} messages so far',
  cancel: 'Cancel import',
  cancelling: 'Cancelling…',
  doneTitle: 'Imported {{file}}',
  cancelledTitle: 'Import of {{file}} cancelled; what was imported before stays',
  stoppedTitle: 'Import of {{file}} stopped; the conversations before the problem were kept',
  detectedFormat: 'Format: {{format}}',
  formats: {
    chatgpt: 'ChatGPT export',
    claude: 'Claude export',
    'context-lens': 'Context Lens export'
  },
  importedCounts_one:
    'Added {{count}} conversation ({{forks}} of them branches) with {{messages}} messages, and {{memories}} memories.',
  importedCounts_other:
    'Added {{count}} conversations ({{forks}} of them branches) with {{messages}} messages, and {{memories}} memories.',
  placeholders_one:
    '{{count}} image or attachment was kept as a named placeholder (the file itself is not in the export).',
  placeholders_other:
    '{{count}} images and attachments were kept as named placeholders (the files themselves are not in the export).',
  skippedHeading: 'Left out:',
  skipped: {
    system: '{{count}} system prompts and custom instructions the chat never showed',
    tool: '{{count}} tool calls and tool results (code runs, browsing)',
    hidden: '{{count}} hidden messages and hidden reasoning',
    empty: '{{count}} empty messages',
    branch: '{{count}} messages on abandoned branches (choose “branches as forks” to keep them)',
    unsupported: '{{count}} messages of a kind this app cannot show',
    already_imported: '{{count}} conversations already imported',
    memory_exists: '{{count}} memories you already have'
  },
  indexingHint:
    'Imported messages can be searched now; search by meaning follows as they are indexed (see Memory).',
  exportAllHeading: 'Export all conversations',
  exportThreadHeading: 'Export',
  exportThreadTitle: 'Export “{{title}}”',
  formatLabel: 'Format',
  format: {
    md: 'Markdown: readable, with dates and roles',
    json: 'JSON: complete (flags, summaries, memories); can be imported again'
  },
  withRequests: 'Include the exact requests that were sent to the model',
  exportButton: 'Export…',
  exporting: 'Exporting…',
  exported_one: 'Saved {{count}} conversation ({{messages}} messages) to {{path}}.',
  exported_other: 'Saved {{count}} conversations ({{messages}} messages) to {{path}}.'
}

/** English strings; the source of truth for the shape every other locale must match. */
export const en = {
  app: {
    name: 'Context Lens',
    windowTitle: '{{title}} · Context Lens',
    recoveredTitle: 'Your previous database was damaged.',
    recoveredBody: 'You chose to start with an empty one. The damaged file was kept at {{path}}.'
  },
  common: {
    cancel: 'Cancel',
    dismiss: 'Dismiss',
    retry: 'Try again'
  },
  threads: {
    listLabel: 'Threads',
    newThread: 'New thread',
    /** Shown for a thread not yet named by its first message or by the user. */
    untitled: 'New conversation',
    loading: 'Loading threads…',
    emptyTitle: 'No threads yet',
    emptyBody: 'Start one with the New thread button.',
    noMessages: 'No messages yet',
    rename: 'Rename',
    renameLabel: 'Thread title',
    delete: 'Delete',
    actionsFor: 'Actions for {{title}}',
    deleteTitle: 'Delete this thread?',
    deleteBody: '“{{title}}” and all of its messages will be deleted. This cannot be undone.',
    deleteConfirm: 'Delete thread'
  },
  search: {
    label: 'Search threads and messages',
    placeholder: 'Search all threads',
    clear: 'Clear search',
    resultsLabel: 'Search results',
    searching: 'Searching…',
    noResults: 'Nothing matches “{{query}}”.',
    titleMatch: 'Title'
  },
  chat: {
    noThreadTitle: 'Start a conversation',
    noThreadBody:
      'Pick a thread on the left or create a new one. Everything you write is stored on this computer.',
    emptyThreadTitle: 'Nothing here yet',
    emptyThreadBody:
      'Write the first message below. The inspector will show exactly what a model would receive.',
    loading: 'Loading messages…',
    loadFailed: 'Could not load this thread: {{message}}',
    messagesLabel: 'Messages',
    messageCount_one: '{{count}} message',
    messageCount_other: '{{count}} messages',
    roles: {
      user: 'You',
      assistant: 'Assistant',
      system: 'System',
      tool: 'Tool'
    },
    composerLabel: 'Message',
    placeholder: 'Write a message…',
    hint: 'Enter to send · Shift+Enter for a new line',
    send: 'Send',
    sendFailed: 'Not sent: {{message}}',
    noModelTitle: 'No model provider is configured yet.',
    noModelBody:
      'Your message is saved. Nothing will reply until a provider is set up, so no answer is shown.',
    showInspector: 'Show inspector',
    hideInspector: 'Hide inspector',
    inspector: 'Inspector'
  },
  inspector: {
    title: 'Token budget',
    close: 'Close inspector',
    emptyTitle: 'No context built yet',
    emptyBody:
      'The token-budget inspector will show each build here: the budget and usage of every section, each candidate message with its token count and why it was included or dropped, and the exact payload sent to the model.',
    emptyNote: 'A build happens when a model provider answers a message; none is configured yet.'
  },
  settings: {
    language: 'Language',
    languageSystem: 'System',
    saveFailed: 'Could not save settings: {{message}}',
    loadFailed: 'Could not load settings, using defaults: {{message}}'
  }
}

export type Translation = typeof en

export const memory = {
  open: 'Memory',
  openHint: 'What the assistant remembers across threads',
  title: 'Memory',
  intro: 'Recalled in any thread when it matters. Everything stays on this computer.',
  count_one: '{{count, number}} memory',
  count_other: '{{count, number}} memories',
  close: 'Back to the chat',
  categories: {
    user_preference: 'Preference',
    fact: 'Fact',
    task: 'Task',
    other: 'Other'
  },
  allCategories: 'All categories',
  searchLabel: 'Search memories',
  searchPlaceholder: 'Search memories',
  filterLabel: 'Filter by category',
  newMemory: 'New memory',
  listLabel: 'Memories',
  loading: 'Loading memories…',
  loadFailed: 'Could not load the memories: {{message}}',
  emptyTitle: 'Nothing remembered yet',
  emptyBody:
    'Use “Remember this” on a message, or add a memory here. Memories come back in any thread when they matter.',
  noMatches: 'No memory matches.',
  showMore: 'Show more',
  updated: 'Updated {{time}}',
  actionsFor: 'Actions for this memory',
  edit: 'Edit',
  delete: 'Delete',
  origin: 'Where it came from',
  changeFailed: 'Could not save the change: {{message}}',
  missing: 'That memory no longer exists.',
  createdSimilar: 'A memory said nearly the same; it was updated instead.',
  createdSame: 'This is already remembered.',
  deleted: 'Memory deleted.',
  undo: 'Undo',
  editor: {
    contentLabel: 'Memory text',
    placeholder: 'Something to keep in mind, e.g. “I prefer metric units.”',
    categoryLabel: 'Category',
    save: 'Save',
    add: 'Add memory'
  },
  originPanel: {
    label: 'Where this memory came from',
    loading: 'Loading its origin…',
    failed: 'Could not load its origin: {{message}}',
    fromMessage: 'From message #{{seq}} ({{role}}) in “{{title}}”',
    fromThread: 'From “{{title}}”; that message was deleted.',
    typed: 'Added by hand in the memory manager.',
    gone: 'Its thread was deleted; the memory stays.',
    openMessage: 'Open the message',
    history: 'History',
    actions: {
      create: 'Created',
      update: 'Updated',
      delete: 'Deleted',
      restore: 'Restored'
    },
    reasons: {
      explicit: 'added by hand',
      remember_message: 'with “Remember this”',
      edit: 'edited',
      dedup_hash: 'the same text was remembered again',
      dedup_similar: 'a similar memory was remembered',
      user_delete: 'by you',
      undo_delete: 'undo',
      extraction: 'extracted automatically'
    },
    before: 'Before: {{content}}'
  },
  status: {
    label: 'Memory search status',
    ready: 'Meaning-based recall ready',
    loading: 'Loading the embedding model…',
    downloading: 'Downloading the embedding model… {{percent}} %',
    downloadingFile: '{{file}}: {{loaded}} of {{total}}',
    idle: 'No embedding model: words only',
    unavailable: 'Model not available: words only',
    model: '{{model}} · {{dimension}} dimensions',
    messages_one: '{{done}} of {{count, number}} message indexed',
    messages_other: '{{done}} of {{count, number}} messages indexed',
    memories_one: '{{done}} of {{count, number}} memory indexed',
    memories_other: '{{done}} of {{count, number}} memories indexed',
    indexing: 'Indexing {{count, number}} more…',
    indexingRate: 'Indexing {{count, number}} more · {{rate}} per second · {{left}}',
    timeLeft: {
      seconds: 'about {{count}} s left',
      minutes: 'about {{count}} min left',
      hours: 'about {{count}} h left'
    },
    failed_one: '{{count, number}} item could not be embedded; full text still finds it.',
    failed_other: '{{count, number}} items could not be embedded; full text still finds them.',
    reembedding:
      'Re-embedding for the new model; items not done yet are found by their words only.',
    loadFailed: 'Could not read the memory status: {{message}}'
  },
  warnings: {
    no_model: 'No embedding model is set up: memory search matches words only, not meaning.',
    loading: 'The embedding model is still loading: memory search matches words only for now.',
    downloading:
      'The embedding model is being downloaded: memory search matches words only for now.',
    unavailable:
      'The embedding model could not be loaded ({{reason}}): memory search matches words only.',
    indexing:
      'The embedding model is preparing its index: memory search matches words only for now.',
    embed_slow:
      'Your text could not be embedded within {{ms}} ms: memory search matched words only.',
    embed_failed: 'Your text could not be embedded ({{reason}}): memory search matched words only.',
    text_slow:
      'Word search did not finish within {{ms}} ms: memory search matched by meaning only.',
    text_failed: 'Word search failed ({{reason}}): memory search matched by meaning only.',
    search_timeout:
      'Memory search took over {{ms}} ms and was skipped: this request has no memories.',
    search_failed: 'Memory search failed ({{reason}}): this request has no memories.'
  },
  settings: {
    title: 'Model settings',
    folderLabel: 'Model folder',
    folderHint:
      'A folder holding a model, or a models folder with Xenova/multilingual-e5-small or Xenova/bge-small-zh-v1.5 in it. Empty: the default places.',
    folderPlaceholder: 'Default',
    save: 'Use this folder',
    reset: 'Use the default',
    allowDownload:
      'Download the model once if no folder has it (about {{mb}} MB from Hugging Face; nothing of yours is sent)',
    autoExtract:
      "After each reply, let the thread's model note lasting preferences and facts from your message (one short extra request to the same provider)",
    indexingThreadsLabel: 'Indexing threads',
    indexingThreadsAuto: 'Automatic: {{count}} (half the cores)',
    indexingThreadsHint:
      'How many cores embed messages and memories in the background. More indexes a large history sooner; indexing pauses while a message is being sent, either way. Each thread holds its own copy of the model in memory (about {{mb}} MB).',
    saved: 'Saved. The model is reloading.',
    savedOther: 'Saved.',
    failed: 'Could not save the model settings: {{message}}',
    modelLabel: 'Embedding model',
    modelHint:
      'Switching re-embeds every message and memory in the background; recall uses full text until it is done.',
    models: {
      e5: 'multilingual-e5-small: Chinese, English and across them',
      bge: 'bge-small-zh-v1.5: smaller, Chinese first'
    }
  },
  extracted: {
    label: 'Remembered from this message',
    created: 'Remembered:',
    updated: 'Updated memory:',
    unchanged: 'Already remembered:',
    forgotten: 'Forgotten:',
    forget: 'Forget',
    undo: 'Undo'
  },
  remember: {
    action: 'Remember this',
    hint: 'Keep this message as a memory, recalled in any thread',
    pending: 'Remembering…',
    created: 'Remembered',
    updatedSimilar: 'Updated a similar memory',
    updated: 'Updated the memory',
    unchanged: 'Already remembered',
    failed: 'Not remembered: {{message}}',
    open: 'Open in Memory'
  }
}

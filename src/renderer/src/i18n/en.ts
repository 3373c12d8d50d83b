/** English strings; the source of truth for the shape every other locale must match. */
export const en = {
  app: {
    name: 'Context Lens',
    windowTitle: '{{title}} · Context Lens',
    recoveredTitle: 'Your previous database was damaged.',
    recoveredBody:
      'Everything that could still be read was copied into a new file. The damaged file was kept at {{path}}.',
    recoveredCopied: 'Recovered: {{list}}.',
    recoveredLost: 'Could not be read: {{list}}.',
    recoveredNothing: 'Nothing could be read from the damaged file.',
    recoveredUnknown:
      'How many {{tables}} were lost is unknown: that part of the file could not be read at all.',
    recoveredTableNames: {
      threads: 'conversations',
      messages: 'messages',
      thread_summaries: 'summaries',
      message_usage: 'usage records',
      context_builds: 'inspector builds',
      settings: 'settings',
      memories: 'memories',
      memory_history: 'memory history entries',
      mcp_servers: 'MCP servers'
    },
    recoveredTables: {
      threads_one: '{{count}} conversation',
      threads_other: '{{count}} conversations',
      messages_one: '{{count}} message',
      messages_other: '{{count}} messages',
      thread_summaries_one: '{{count}} summary',
      thread_summaries_other: '{{count}} summaries',
      message_usage_one: '{{count}} usage record',
      message_usage_other: '{{count}} usage records',
      context_builds_one: '{{count}} inspector build',
      context_builds_other: '{{count}} inspector builds',
      settings_one: '{{count}} setting',
      settings_other: '{{count}} settings',
      memories_one: '{{count}} memory',
      memories_other: '{{count}} memories',
      memory_history_one: '{{count}} memory history entry',
      memory_history_other: '{{count}} memory history entries',
      mcp_servers_one: '{{count}} MCP server',
      mcp_servers_other: '{{count}} MCP servers'
    }
  },
  /** Storage failures by error code; the main process's English text is the fallback. */
  storageErrors: {
    storage_corrupt:
      'The conversation database is damaged, so this could not be read or saved. A copy of the file is being kept and you will be offered a recovery of everything that can still be read.',
    storage_full:
      'The disk is full, so this was not saved. Free some space and try again; your text is kept, and nothing saved before was lost.',
    storage_readonly:
      'The conversation database is read-only, so this was not saved. Check that you may write to the file and its folder, then try again.'
  },
  common: {
    cancel: 'Cancel',
    dismiss: 'Dismiss',
    retry: 'Try again',
    close: 'Close'
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
    deleteConfirm: 'Delete thread',
    export: 'Export'
  },
  search: {
    label: 'Search threads and messages',
    placeholder: 'Search all threads',
    clear: 'Clear search',
    resultsLabel: 'Search results',
    searching: 'Searching…',
    noResults: 'Nothing matches “{{query}}”.',
    titleMatch: 'Title',
    exactTitle: 'Matching words',
    semanticTitle: 'Related by meaning',
    semanticSearching: 'Looking for related messages…',
    /** Calibrated similarity: 0.6 means related, 1 means the same. */
    similarity: 'similarity {{value}}'
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
    loadingOlder: 'Loading earlier messages…',
    olderFailed: 'Earlier messages could not be loaded; scroll up to try again.',
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
    copy: 'Copy',
    copyMessage: 'Copy this message (as written, in Markdown)',
    copyCode: 'Copy this code',
    copyState: {
      copied: 'Copied',
      failed: 'Could not copy'
    },
    versions: {
      label: 'Versions of this reply',
      turnLabel: 'Versions of this message',
      previous: 'Previous version',
      next: 'Next version',
      position: '{{n}} / {{m}}'
    },
    noModelTitle: 'No model provider is configured yet.',
    noModelBefore:
      'Messages are saved, but nothing replies until a model provider is added in Settings.',
    noModelBody:
      'Your message is saved. Nothing will reply until a provider is set up, so no answer is shown.',
    showInspector: 'Show inspector',
    hideInspector: 'Hide inspector',
    inspector: 'Inspector',
    pin: 'Pin',
    pinHint: 'Pinned messages are always sent to the model',
    exclude: 'Exclude',
    excludeHint: 'Excluded messages are never sent to the model',
    notSent: 'not sent',
    flagFailed: 'Could not change the message: {{message}}',
    buildFailed: 'Your message is saved, but its context could not be built: {{message}}',
    noModelAction: 'Set up a model provider',
    noModelOllama:
      'Ollama is running on this computer with {{count}} models: you can add it in one click.',
    stop: 'Stop',
    streaming: 'Replying…',
    replyEmpty: 'empty reply',
    emptyReply: {
      note: 'The model finished without sending any text.',
      length:
        'It used its whole output limit before writing (often a reasoning model thinking); it is not sent back to the model.',
      notSent: 'It is kept here but never sent back to the model.'
    },
    replyStopped: 'stopped',
    replyFailed: 'incomplete',
    regenerate: 'Regenerate',
    edit: 'Edit',
    editLabel: 'Edit message',
    editResend: 'Save and resend',
    superseded: 'replaced by a newer reply',
    branchedAway: 'earlier version',
    modelLabel: 'Model',
    modelDefault: 'Default ({{model}})',
    modelNone: 'No model',
    retryNotice: 'The request was too long; it was rebuilt at {{budget}} tokens and retried.',
    errorTitle: 'The reply failed: {{message}}',
    errorKinds: {
      auth: 'the provider refused the API key',
      rate_limit: 'rate limited',
      network: 'network error',
      timeout: 'timed out',
      context_length: 'the request is longer than the model accepts',
      server: 'server error',
      bad_response: 'unreadable response',
      invalid_request: 'request refused',
      aborted: 'stopped'
    },
    errorActions: {
      auth: 'Check your key',
      retry: 'Retry',
      retryIn: 'Retrying in {{seconds}} s',
      retryNow: 'Retry now'
    },
    contextLengthHelp:
      'It was rebuilt smaller and retried once already. Exclude long messages, lower the context budget in the inspector, or pick a model with a larger window.',
    usage: {
      tokens: '{{prompt}} in · {{completion}} out',
      cache: 'cache {{read}} read · {{write}} written',
      cost: '${{cost}}',
      estimated: 'estimated {{estimated}}',
      thread: 'Thread: {{tokens}} tokens, provider-reported',
      threadCost: 'Thread: {{tokens}} tokens · ${{cost}}, provider-reported',
      title:
        'Prompt {{prompt}} · completion {{completion}} · cache read {{read}} · cache write {{write}}'
    }
  },
  providers: {
    title: 'Model providers',
    add: 'Add provider',
    detectOllama: 'Detect Ollama',
    ollamaFound_one: 'Ollama is running with {{count}} model.',
    ollamaFound_other: 'Ollama is running with {{count}} models.',
    ollamaAdd: 'Add Ollama',
    ollamaMissing: 'No Ollama answered at {{url}}.',
    encryptionUnavailable:
      'This system offers no secure storage, so API keys cannot be saved. Keyless local servers (Ollama, LM Studio) still work.',
    kind: 'Kind',
    name: 'Name',
    baseUrl: 'Base URL',
    optional: '(optional)',
    apiKey: 'API key',
    apiKeyPlaceholder: 'Paste the key; it is stored encrypted and never shown again',
    apiKeyStored: 'Stored: {{hint}} (type to replace)',
    models: 'Models',
    modelId: 'Model id',
    contextWindow: 'Context window',
    maxOutput: 'Max output',
    addModel: 'Add model',
    removeModel: 'Remove model',
    test: 'Test connection',
    testing: 'Testing…',
    testOk: 'Connected in {{ms}} ms.',
    testModels: 'Connected in {{ms}} ms. Models: {{models}}',
    testFailed: 'Failed: {{kind}} ({{message}})',
    fetchModels: 'List models',
    fetchingModels: 'Asking the provider…',
    remoteModels: 'The provider serves {{count}} models. Add the ones you want to use:',
    remoteModelsNone: 'The provider lists no models.',
    remoteModelsFailed: 'Could not list the models: {{kind}} ({{message}})',
    remoteModelsAppError: 'app error',
    httpStatus: ' (HTTP {{status}})',
    save: 'Save',
    saved: 'Saved',
    remove: 'Remove provider',
    defaultModel: 'Default model',
    noDefault: 'None',
    addModelShort: 'Add',
    addThisModel: 'Add {{model}}',
    modelAdded: 'Added',
    modelNote: {
      priced:
        '${{input}} in · ${{output}} out per million tokens, from the model catalog of {{date}}. Your own values win.',
      local: 'Runs on this computer: no cost per token.',
      guess:
        'Not in the model catalog: the window and output limit may be guesses (check the model’s page), and with no price no cost is shown.'
    }
  },
  inspector: {
    usage: {
      title: 'Last reply: prompt tokens',
      estimated: 'Estimated',
      actual: 'Provider reported',
      completion: 'Completion',
      cacheRead: 'Cache read',
      cacheWrite: 'Cache write'
    },
    summary: {
      title: 'Thread summary',
      meta: 'covers up to message #{{seq}} · v{{version}} · {{source}}',
      sources: {
        model: 'by the model',
        fallback: 'written without a model',
        user: 'edited by you'
      },
      edit: 'Edit summary',
      save: 'Save summary'
    },
    title: 'Token budget',
    close: 'Close inspector',
    resize: 'Resize the inspector',
    noThreadTitle: 'No thread open',
    noThreadBody:
      'Open a thread and the inspector shows exactly what a model would receive for your next message: the budget of every section, every candidate and why it was kept or dropped, and the payload itself.',
    building: 'Building the preview…',
    failed: 'The inspector could not load: {{message}}',
    source: {
      preview: 'Live preview of your draft',
      previewEmpty: 'Preview of the next request (your draft is empty)',
      previewWhatIf: 'Live preview with unsaved budget settings',
      lastSent: 'Last request as sent · {{time}}. Type to see the live preview of your draft.',
      history: 'Sent build · {{time}}',
      backToPreview: 'Back to live preview',
      backToLastSent: 'Back to the last sent request'
    },
    tabs: {
      label: 'Inspector views',
      items: 'Items',
      payload: 'Payload',
      settings: 'Budget',
      history: 'History'
    },
    sections: {
      system: 'System',
      summary: 'Summary',
      retrieved: 'Retrieved',
      recent: 'Recent',
      input: 'Input',
      pinning: 'Current goal',
      attachments: 'Attachments',
      tools: 'Tools'
    },
    budget: {
      barLabel: 'Tokens used by section',
      total: '{{used}} of {{budget}} tokens',
      window: '{{window}}-token window · {{reserve}} kept for the reply',
      segment: '{{section}}: {{used}} of {{budget}} tokens',
      usage: '{{used}} / {{budget}}',
      items_one: '{{count, number}} item',
      items_other: '{{count, number}} items',
      legendLabel: 'Used and budget per section'
    },
    metadata: {
      label: 'About this build',
      included: 'Sent',
      dropped: 'Dropped',
      summarized: 'Summarised',
      memories: 'Memories',
      summaryUsed: 'summary used',
      summaryNone: 'no summary',
      counting: {
        exact: 'exact token count',
        estimated: 'estimated token count'
      },
      engines: {
        builder: 'standard engine',
        compressor: 'compressing engine',
        other: 'another engine'
      }
    },
    warnings: {
      system_truncated: 'The system prompt was cut to fit the budget.',
      summary_truncated: 'The summary was shortened or left out to fit its budget.',
      input_over_budget: 'Your input is larger than the budget left; it is sent whole anyway.',
      pinned_over_budget: 'Pinned messages need more than the budget; they are sent anyway.',
      pinning_dropped: 'No budget was left for the current-goal block.',
      context_window_exceeded: "This request is larger than the model's context window.",
      request_shrunk:
        "This request was over 85 % of the model's context window, so it was rebuilt smaller: older messages and memories gave way.",
      input_trimmed:
        "Your message is too long for the model's context window: only its beginning and end were sent. The full message is stored.",
      orphan_tool_result: 'A tool result without its call was left out.',
      unanswered_tool_call: 'A tool call without its result was left out.',
      estimated_tokens: 'No exact tokenizer for this model: token counts are estimates.',
      unknown_model: 'Unknown model: its context window is assumed.',
      engine_fallback:
        'The configured context engine does not exist; the default builder was used.',
      /** Main's English detail is in the tooltip; known causes get their own text (memory.warnings). */
      upstream: 'Memory search did not run normally; hover for the details.',
      input_estimated:
        'This long draft is counted with an estimate while you type; it is counted exactly when you send it.',
      input_chunked:
        'Your message has long runs without a break (base64, a hash, text without spaces); they were counted in chunks, within about 0.5 % of the exact count.',
      attachments_dropped:
        'Parts of the attached files did not fit their budget and were not sent; the trace lists every chunk.',
      tools_dropped:
        'Some tools did not fit their budget and were not offered to the model; the trace lists which.',
      attachments_not_embedded:
        'Not embedded yet, so their chunks were not ranked by meaning (they were taken in document order): {{files}}.'
    },
    decisions: {
      included: 'included',
      dropped_budget: 'dropped: budget',
      excluded_by_user: 'excluded by you',
      pinned: 'pinned',
      covered_by_summary: 'in summary',
      duplicate: 'duplicate',
      empty_reply: 'empty reply: not sent'
    },
    trace: {
      label: 'Candidates by section',
      empty: 'No candidates.',
      kinds: {
        system: 'System prompt',
        summary: 'Thread summary',
        input: 'Your input',
        pinning: 'Current-goal block',
        attachment: 'File chunk',
        tool: 'Tool schema'
      },
      attachmentChunk: '{{name}} · lines {{start}}–{{end}}',
      message: '#{{seq}} · {{role}}',
      messageMissing: 'message no longer in this thread',
      score: 'score {{score}}',
      sourceMemory: 'memory · {{category}}',
      sourceMessage: 'message #{{seq}} in “{{title}}”',
      sourceMessageUntitled: 'message #{{seq}}',
      openMemory: 'Open this memory in the memory manager',
      openMessage: 'Open this message in its thread',
      openFailed: 'Could not open it: {{message}}',
      tokensTitle_one: '{{count, number}} token',
      tokensTitle_other: '{{count, number}} tokens',
      reveal: 'Show message #{{seq}} in the chat',
      collapsed_dropped_budget: 'Messages #{{from}}–#{{to}}: {{n}} dropped for budget',
      collapsed_covered_by_summary: 'Messages #{{from}}–#{{to}}: {{n}} covered by the summary',
      showMore: 'Show {{count}} more'
    },
    payload: {
      label: 'The exact messages sent to the model',
      summary_one: '{{count, number}} message, exactly as sent',
      summary_other: '{{count, number}} messages, exactly as sent',
      copy: 'Copy as JSON',
      copied: 'Copied',
      copyFailed: 'Could not copy',
      toolCall: 'calls {{name}}',
      toolResult: 'result of {{id}}',
      empty: '(empty)'
    },
    config: {
      percentages: 'Share of the total budget',
      sum: 'Sum {{sum}} %',
      sumOver: 'Sum {{sum}} %: at most 100 %',
      sumHeadroom: 'Sum {{sum}} %: {{free}} % left unallocated',
      shareTokens: '≈ {{tokens}}',
      totalBudget: 'Total budget',
      totalAuto: 'Auto: {{tokens}}',
      totalHint: "Empty: the model's window minus the reply reserve.",
      tokensUnit: 'tokens',
      pinning: 'Current-goal block',
      pinningHint: 'Restates the current goal just before your input.',
      chunkedWindow: 'Cache-friendly history window',
      chunkedWindowHint:
        'When the conversation outgrows the budget, older messages are dropped in chunks, so most requests repeat the previous one and the provider can serve them from its prompt cache. Off: the window slides by a message or two every turn.',
      fieldWindow: 'history window',
      unsaved: 'Unsaved: the preview shows these settings, nothing is stored yet.',
      reset: 'Reset',
      saveThread: 'Save for this thread',
      saveGlobal: 'Save as default',
      threadOverrides: 'This thread has its own settings for: {{fields}}.',
      fieldTotal: 'total budget',
      fieldPinning: 'current-goal block',
      fieldOther: 'model and engine',
      loading: 'Loading the settings…'
    },
    recall: {
      label: 'What recall found',
      retrieved_one: 'Retrieved: {{count, number}} item, {{tokens}} tokens',
      retrieved_other: 'Retrieved: {{count, number}} items, {{tokens}} tokens',
      memories_one: '{{count, number}} memory, {{tokens}} tokens',
      memories_other: '{{count, number}} memories, {{tokens}} tokens',
      thisThread_one: '{{count, number}} earlier message of this thread, {{tokens}} tokens',
      thisThread_other: '{{count, number}} earlier messages of this thread, {{tokens}} tokens',
      otherThreads_one: '{{count, number}} message from other threads, {{tokens}} tokens',
      otherThreads_other: '{{count, number}} messages from other threads, {{tokens}} tokens',
      sentenceEnd: '. ',
      nothingPassed:
        'Nothing passed the relevance gate (memories {{memory}}, messages {{message}})',
      nothingElse:
        'Nothing else passed the relevance gate (memories {{memory}}, messages {{message}})',
      didNotFit_one: '{{count, number}} more passed the relevance gate but did not fit the budget',
      didNotFit_other:
        '{{count, number}} more passed the relevance gate but did not fit the budget',
      textOnly: 'Matched by words only: the embedding model is not ready',
      fillSpareOn: 'Fill spare budget is on: items under the relevance gate fill what is left',
      free: '{{tokens}} tokens of the budget left free',
      rejectedTitle_one: 'The best candidate under the gate',
      rejectedTitle_other: 'The {{count, number}} best candidates under the gate',
      relevanceVsGate: 'relevance {{relevance}} < gate {{gate}}',
      fromMemories: 'memory',
      fromThisThread: 'earlier in this thread',
      fromThread: 'in “{{title}}”',
      tryGate: 'Preview with the gate at {{gate}}',
      trying: 'Previewing with the relevance gate at {{gate}} (not saved).',
      tryReset: 'Back to the calibrated gate',
      scopeLegend: 'Recall from',
      scope: {
        thread: 'This thread only',
        thread_memories: 'This thread and memories',
        all: 'All threads and memories'
      },
      scopeHint: {
        thread: 'Older messages of this conversation that the window no longer sends.',
        thread_memories: 'Also what you saved as memories. Other conversations stay out.',
        all: 'Also messages from your other conversations, labelled with their title. Only what passes the relevance gate is sent.'
      },
      fillSpare: 'Fill spare budget',
      fillSpareHint:
        'Off (recommended): budget nothing relevant needs stays free, so requests cost less. On: the nearest items under the relevance gate, and the turns around each hit, fill what is left.',
      field: 'recall'
    },
    history: {
      label: 'Builds sent in this thread, newest first',
      empty: 'Nothing sent in this thread yet. Each message you send keeps its build here.',
      tokens_one: '{{count, number}} token',
      tokens_other: '{{count, number}} tokens',
      messages_one: '{{count, number}} message',
      messages_other: '{{count, number}} messages'
    }
  },
  memory: {
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
      embed_failed:
        'Your text could not be embedded ({{reason}}): memory search matched words only.',
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
  },
  compress: {
    usage: '/compress [focus]',
    help: 'Fold the older messages into the thread summary; an optional focus topic gets most of it',
    discover: 'Type / for commands',
    running: 'Compressing older messages into the summary…',
    focus: 'focus: {{focus}}',
    done_one: 'Compressed {{count}} message ({{tokens}} tokens) into the summary',
    done_other: 'Compressed {{count}} messages ({{tokens}} tokens) into the summary',
    doneBody_one:
      'The newest message is still sent word for word. Nothing was deleted: only what is sent to the model changed.',
    doneBody_other:
      'The newest {{count}} messages are still sent word for word. Nothing was deleted: only what is sent to the model changed.',
    modelFallback:
      'The model could not write the summary ({{message}}), so it was extracted without a model.',
    nothingEmpty: 'Nothing to compress: this conversation has no messages yet.',
    nothingInTail_one:
      'Nothing to compress yet: the newest message is always sent word for word and everything older is already in the summary.',
    nothingInTail_other:
      'Nothing to compress yet: the newest {{count}} messages are sent word for word (they fit easily) and everything older is already in the summary.',
    superseded:
      'The summary was edited while compressing; your edit was kept and this compression was discarded.',
    failed: 'Could not compress: {{message}}'
  },
  promptCache: {
    label: 'Prompt cache (Anthropic)',
    option5m: '5 minutes (default)',
    option1h: '1 hour',
    explain:
      'Applies to Anthropic models only: the start of each request is cached so the next one within this time reads it at a tenth of the input price. Writing a 1-hour cache costs 2× the input price instead of 1.25×, so choose it for long pauses between messages. Costs shown in the app assume 5-minute writes.'
  },
  settings: {
    language: 'Language',
    languageSystem: 'System',
    saveFailed: 'Could not save settings: {{message}}',
    loadFailed: 'Could not load settings, using defaults: {{message}}'
  },
  welcome: {
    title: 'Welcome to Context Lens',
    body: 'A chat assistant that shows you exactly what the model sees: every message, memory and file it is sent, what each costs, and why anything was left out.',
    needsProvider:
      'To get replies, add a model provider: an API key for OpenAI or Anthropic, or a server on your computer (Ollama, LM Studio, vLLM).',
    addProvider: 'Add a model provider',
    ollamaFound_one:
      'Ollama is running on this computer with {{count}} model: it will be set up for you.',
    ollamaFound_other:
      'Ollama is running on this computer with {{count}} models: they will be set up for you.',
    kindsLabel: 'Or start with:',
    localFirst: 'Your conversations stay on this computer; only what you send goes to the provider.'
  },
  theme: {
    label: 'Theme',
    system: 'System',
    light: 'Light',
    dark: 'Dark'
  },
  settingsPage: {
    title: 'Settings',
    open: 'Settings',
    back: 'Back to chat',
    backHint: 'Back to chat (Esc)',
    sections: 'Settings sections',
    models: 'Default model'
  },
  gauge: {
    recalled:
      'Recalled: {{memories}} from memories, {{thisThread}} from earlier in this thread, {{otherThreads}} from other threads',
    free: '{{tokens}} tokens of the budget left free',
    label: 'Context',
    /** The button: what the gauge shows, for screen readers. */
    buttonLabel: 'Context of the {{source}}: {{used}} of {{budget}} tokens. Open the details.',
    usage: '{{used}} / {{budget}}',
    window: '{{window}} window',
    source: {
      draft: 'draft preview',
      sent: 'last sent request',
      next: 'next request'
    },
    heading: {
      draft: 'Your draft, if sent now',
      sent: 'Last sent request · {{time}}',
      next: 'Next request (empty draft)'
    },
    totals: '{{used}} of {{budget}} tokens · window {{window}} · safety net at {{limit}} (85 %)',
    sectionRow: '{{used}} / {{budget}}',
    sectionItems_one: '{{n}} item',
    sectionItems_other: '{{n}} items',
    openSection: 'Open {{section}} in the inspector',
    openHint: 'Click a section to open it in the inspector.',
    notesLabel: 'About this request',
    summaryInUse_one: 'Summary in use: it stands for {{n}} older message.',
    summaryInUse_other: 'Summary in use: it stands for {{n}} older messages.',
    memoriesDropped_one: '{{n}} memory left out for lack of room.',
    memoriesDropped_other: '{{n}} memories left out for lack of room.',
    safetyNet: 'Safety net active: {{what}}',
    safetyNetShrunk: 'the request is rebuilt within 85 % of the window.',
    safetyNetTrimmed: 'only the beginning and end of the message are sent.',
    percent: '{{percent}} %',
    attachDraft: 'Attach as a file',
    attachDraftHint:
      'Your draft is larger than the input’s share. As a file attached to your message, only its most relevant parts are sent, and the inspector shows which.',
    pastedFileName: 'pasted-text.txt',
    nearBudget:
      '{{percent}} % of the budget used. Past the budget, older messages and memories give way first; at {{limit}} tokens (85 % of the window) the safety net rebuilds the request.',
    overBudget:
      'Over the budget ({{percent}} %): older messages and memories give way so your message is sent whole. {{left}} tokens are left before the safety net (85 % of the window) acts.',
    wouldShrink:
      'If sent now, this request is over 85 % of the window and is rebuilt within {{limit}} tokens: older messages and memories give way ({{dropped}} messages left out).',
    wouldTrim:
      'If sent now, your message does not fit the window: only its beginning and end ({{sent}} tokens) are sent; the full text is stored.'
  },
  threadStats: {
    /** The row's visible figure: tokens of the newest build. */
    total: '{{tokens}} tokens',
    barLabel: 'Last request {{used}} of {{budget}} tokens ({{percent}} %)',
    noBuild: 'Nothing sent yet',
    details: 'Context of “{{title}}”',
    lastBuild: 'Last request, {{time}}: {{used}} of {{budget}} tokens ({{percent}} %)',
    section: '{{section}}: {{used}}',
    cost: 'Cost so far: ${{cost}}',
    costPartial: 'Cost so far: ${{cost}} (+{{count}} replies without a price)',
    costNone: 'Cost so far: none recorded',
    summaryAt: 'Summary last updated {{time}}',
    summaryNever: 'No summary yet',
    sortLabel: 'Order threads',
    sort: {
      recent: 'Recent activity',
      fullest: 'Fullest context',
      cost: 'Most expensive'
    },
    filtered_one: 'Showing {{shown}} of {{total}} thread (those with data).',
    filtered_other: 'Showing {{shown}} of {{total}} threads (those with data).'
  },
  files: {
    attach: 'Attach files to this message',
    attachThread: 'Add files to the whole thread',
    threadFiles: 'Thread files',
    threadFilesHint: 'Sent with every message in this thread. Drop files here.',
    dropHere: 'Drop files to attach them to your message',
    remove: 'Remove {{name}}',
    reading_one: 'Reading {{count}} file…',
    reading_other: 'Reading {{count}} files…',
    chipTitle: '{{name}} · {{kind}} · {{size}} · {{chars}} characters',
    notEmbedded: 'not embedded yet: if it must be cut, its chunks go in document order',
    refused: 'Not attached: {{name}}',
    failed: 'Could not attach {{name}}: {{message}}',
    dismiss: 'Dismiss',
    reasons: {
      too_large: '“{{name}}” is larger than the {{limit}} limit.',
      too_long: '“{{name}}” has more text than the {{limit}}-character limit.',
      binary:
        '“{{name}}” is a binary file; only text, Markdown, code, CSV/JSON and PDF can be attached.',
      encoding: '“{{name}}” is not UTF-8 or UTF-16 text; save it as UTF-8 and attach it again.',
      empty: '“{{name}}” has no text (an empty file, or a PDF scan without a text layer).',
      pdf_unreadable: '“{{name}}” could not be read as a PDF.',
      unreadable: '“{{name}}” could not be read.'
    },
    inspector: {
      file: '{{name}}: {{sent}} of {{total}} chunks sent',
      chunk: 'Chunk {{index}} · lines {{from}}–{{to}}',
      whole: 'Whole file',
      relevance: 'relevance {{score}}',
      byWords: 'not ranked'
    }
  },
  history: {
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
  },
  fork: {
    action: 'Branch from here',
    hint: 'A new thread with the conversation up to and including this message; what came after stays in this thread only.',
    failed: 'Could not branch: {{reason}}',
    from: 'Branched from “{{title}}”',
    openOrigin: 'Open “{{title}}” at message #{{seq}}'
  },
  backup: {
    title: 'Backups',
    explain:
      'A copy of all conversations, taken while the app runs. One is also taken before an update changes the database and before an import. The newest 10 are kept.',
    now: 'Back up now',
    progress: 'Backup progress',
    restoreFile: 'Restore from a file…',
    restore: 'Restore',
    confirm:
      'Replace the current conversations with this backup? They are kept aside, not deleted.',
    restored:
      'Restored {{threads}} conversations ({{messages}} messages). The conversations you had are kept at {{keptAt}}. Reopening…',
    none: 'No backups yet.',
    size: '{{mb}} MB',
    reasons: {
      manual: 'Manual',
      'pre-migration': 'Before an update',
      'pre-import': 'Before an import'
    }
  },
  tools: {
    settingsTitle: 'Tools (MCP servers)',
    settingsIntro:
      'Servers start only when enabled. A local server runs with exactly the environment you give it here, nothing of the app’s; its command is looked up on that PATH, else on the app’s.',
    noServers: 'No MCP server yet.',
    addTitle: 'Add a server',
    name: 'Name',
    kind: 'Connection',
    kinds: { stdio: 'Local command (stdio)', http: 'HTTP' },
    command: 'Command',
    args: 'Arguments (one per line)',
    env: 'Environment (NAME=value, one per line)',
    cwd: 'Working folder (empty: your home folder)',
    url: 'URL',
    headers: 'Headers (Name: value, one per line)',
    enabled: 'Enabled',
    add: 'Add server',
    remove: 'Remove',
    restart: 'Restart',
    badLine: 'Line {{line}} is not {{format}}.',
    status: {
      stopped: 'Stopped',
      starting: 'Starting…',
      running: 'Running',
      error: 'Failed to start'
    },
    toolCount_one: '{{count}} tool',
    toolCount_other: '{{count}} tools',
    picker: 'Tools',
    pickerTitle: 'Tools this thread offers the model',
    pickerCount: 'Tools ({{count}})',
    pickerEmpty: 'No tools available: add or start an MCP server in Settings.',
    alwaysAllowed: 'always allowed',
    revokeAlways: 'Ask again',
    builtin: 'Built-in',
    approvalTitle: '{{tool}} ({{source}}) wants to run',
    approvalArgs: 'Arguments',
    allowOnce: 'Allow once',
    allowAlways: 'Always allow this tool',
    deny: 'Deny',
    callTitle: 'Asked to run {{tool}}',
    resultTitle: 'Tool output',
    resultNote: 'Shown as data: instructions inside it are not followed by the app.',
    showFull: 'Show full output',
    hideFull: 'Show less',
    fullFailed: 'The stored output could not be read: {{error}}',
    truncatedPreview: '{{shown}} of {{total}} characters shown.'
  },
  cost: {
    footer: '{{read}} served from cache · {{write}} written to cache · {{uncached}} uncached',
    parts:
      'uncached ${{input}} · cache reads ${{read}} · cache writes ${{write}} · output ${{output}}',
    title: 'What this request cost',
    part: 'Part',
    tokens: 'Tokens',
    amount: 'Cost',
    served: 'Served from cache',
    written: 'Written to cache',
    uncached: 'Uncached',
    output: 'Output',
    total: 'Total',
    unpriced: 'No price is known for this model, so only tokens are shown.',
    prefixShared:
      'Same start as the previous request: {{shared}} of {{total}} messages ({{tokens}} tokens).',
    missAt: 'The cache missed. The request first differed from the previous one at {{where}}.',
    differsAt: 'First difference from the previous request: {{where}}.',
    previously: 'The previous request had {{where}} there.',
    previousEnded: 'The previous request ended there.',
    samePrefix: 'This request repeated the previous one and only added to it.',
    firstRequest: 'The first request of this thread: there was nothing to reuse yet.',
    whereMessage: '{{section}}, message #{{seq}}',
    whereItem: '{{section}}',
    otherSection: 'another section',
    thread: 'Thread so far',
    threadCost_one: '${{cost}} over {{count}} reply',
    threadCost_other: '${{cost}} over {{count}} replies',
    threadUnpriced: 'No reply of this thread has a known price.',
    savings: 'The cache saved ${{amount}}.',
    savingsNegative: 'Cache writes cost ${{amount}} more than cache reads saved.',
    whatIf_one: 'Without cache-aware ordering: ${{cost}} (replayed {{count}} turn).',
    whatIf_other: 'Without cache-aware ordering: ${{cost}} (replayed {{count}} turns).',
    whatIfAsk: 'What would it have cost without cache-aware ordering?',
    whatIfRunning: 'Replaying the turns…',
    loading: 'Working out the cost…',
    failed: 'Could not explain the cost: {{message}}'
  },
  summaries: {
    notSmaller:
      'The summary was not kept: it came to {{summary}} tokens, not fewer than the {{replaced}} tokens it would replace. Nothing changed.',
    history: 'Versions',
    compare: 'Before and after',
    restore: 'Restore this version',
    restored: 'Restored',
    current: 'current',
    versionLine: 'v{{version}} · {{kind}} · {{replaced}} → {{summary}} tokens',
    kinds: {
      auto: 'automatic',
      compress: '/compress',
      edit: 'edited',
      restore: 'restored'
    },
    before: 'Before: what it replaced',
    after: 'After: the summary',
    previousSummary: 'Previous summary (v{{version}})',
    noPrevious: 'No summary before this one.',
    replacedMessages_one: '{{count}} message folded in',
    replacedMessages_other: '{{count}} messages folded in',
    noMessages: 'No messages were folded in (an edit or a restore).',
    close: 'Close',
    showCompare: 'Show before and after',
    stale:
      'Out of date: message #{{seq}} changed after this summary was written. It will be rewritten after your next message.',
    paused:
      'Automatic summaries stopped after {{count}} failures in a row ({{message}}). The older messages are still stored; they are just not summarized.',
    retry: 'Retry',
    running: 'Updating the summary…',
    exempt: 'Keep out of summaries',
    exemptHint: 'Exempt: this message is never folded into the thread summary',
    exemptLabel: 'not summarized'
  }
}

export type Translation = typeof en

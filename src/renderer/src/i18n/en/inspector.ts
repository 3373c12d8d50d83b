export const inspector = {
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
    /** The automatic budget, capped below the window less the reply. */
    windowCapped:
      '{{window}}-token window · {{reserve}} kept for the reply · budget capped at 85\u00a0% by the safety net',
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
    retrieved: 'Retrieved',
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
    engine_fallback: 'The configured context engine does not exist; the default builder was used.',
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
    totalHint:
      "Empty: the model's window minus the reply reserve, at most 85 % of the window (the safety net's limit).",
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
    nothingPassed: 'Nothing passed the relevance gate (memories {{memory}}, messages {{message}})',
    nothingElse:
      'Nothing else passed the relevance gate (memories {{memory}}, messages {{message}})',
    didNotFit_one: '{{count, number}} more passed the relevance gate but did not fit the budget',
    didNotFit_other: '{{count, number}} more passed the relevance gate but did not fit the budget',
    absentNames:
      'Nothing found mentions {{names}}, so messages from other threads needed relevance {{gate}}',
    conversationBest:
      'This conversation already holds a message of relevance {{best}}, so messages from other threads needed as much',
    aboutTheUser:
      'You asked about yourself: in other threads your own messages counted {{own}} more relevant and the assistant’s replies {{reply}} less, and replies did not come along with your messages',
    textOnly: 'Matched by words only: the embedding model is not ready',
    fillSpareOn: 'Fill spare budget is on: items under the relevance gate fill what is left',
    free: '{{tokens}} tokens of the budget left free',
    rejectedTitle_one: 'The best candidate left out',
    rejectedTitle_other: 'The {{count, number}} best candidates left out',
    relevanceVsGate: 'relevance {{relevance}} < gate {{gate}}',
    overLimit_one:
      'relevance {{relevance}} ≥ gate {{gate}}, past this search’s limit of {{count, number}}',
    overLimit_other:
      'relevance {{relevance}} ≥ gate {{gate}}, past this search’s limit of {{count, number}}',
    overTokens:
      'relevance {{relevance}} ≥ gate {{gate}}, past this search’s allowance of {{tokens}} tokens',
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
}

export const chat = {
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
}

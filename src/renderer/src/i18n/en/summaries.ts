export const summaries = {
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

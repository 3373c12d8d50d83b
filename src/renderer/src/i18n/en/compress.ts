export const compress = {
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
}

export const files = {
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
}

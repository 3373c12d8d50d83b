export const threads = {
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
}

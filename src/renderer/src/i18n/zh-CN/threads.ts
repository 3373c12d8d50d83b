import type { Translation } from '../resources'

export const threads: Translation['threads'] = {
  listLabel: '对话',
  newThread: '新建对话',
  untitled: '新对话',
  loading: '正在加载对话…',
  emptyTitle: '还没有对话',
  emptyBody: '点击“新建对话”开始。',
  noMessages: '暂无消息',
  rename: '重命名',
  renameLabel: '对话标题',
  delete: '删除',
  actionsFor: '“{{title}}”的操作',
  deleteTitle: '删除这个对话？',
  deleteBody: '“{{title}}”及其全部消息将被删除，且无法恢复。',
  deleteConfirm: '删除对话',
  export: '导出'
}

import type { Translation } from './en'

/** Simplified Chinese strings. */
export const zhCN: Translation = {
  app: {
    name: 'Context Lens',
    windowTitle: '{{title}} · Context Lens',
    recoveredTitle: '之前的数据库已损坏。',
    recoveredBody: '你选择了使用新的空数据库。损坏的文件已保留在 {{path}}。'
  },
  common: {
    cancel: '取消',
    dismiss: '关闭',
    retry: '重试'
  },
  threads: {
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
    deleteConfirm: '删除对话'
  },
  search: {
    label: '搜索对话和消息',
    placeholder: '搜索对话和消息',
    clear: '清除搜索',
    resultsLabel: '搜索结果',
    searching: '正在搜索…',
    noResults: '没有与“{{query}}”匹配的内容。',
    titleMatch: '标题'
  },
  chat: {
    noThreadTitle: '开始一段对话',
    noThreadBody: '从左侧选择一个对话，或新建一个。你写下的所有内容都保存在这台电脑上。',
    emptyThreadTitle: '这里还没有内容',
    emptyThreadBody: '在下方写下第一条消息。检查器会准确展示模型将收到的内容。',
    loading: '正在加载消息…',
    loadFailed: '无法加载此对话：{{message}}',
    messagesLabel: '消息',
    messageCount_one: '{{count}} 条消息',
    messageCount_other: '{{count}} 条消息',
    roles: {
      user: '你',
      assistant: '助手',
      system: '系统',
      tool: '工具'
    },
    composerLabel: '消息',
    placeholder: '输入消息…',
    hint: 'Enter 发送 · Shift+Enter 换行',
    send: '发送',
    sendFailed: '未发送：{{message}}',
    noModelTitle: '尚未配置模型服务。',
    noModelBody: '你的消息已保存。在配置模型服务之前不会有回复，因此这里不显示任何回答。',
    showInspector: '显示检查器',
    hideInspector: '隐藏检查器',
    inspector: '检查器'
  },
  inspector: {
    title: 'Token 预算',
    close: '关闭检查器',
    emptyTitle: '尚未构建上下文',
    emptyBody:
      'Token 预算检查器会在这里展示每一次构建：各部分的预算与用量、每条候选消息的 token 数及其被保留或舍弃的原因，以及发送给模型的完整内容。',
    emptyNote: '模型服务回复消息时才会进行构建；目前尚未配置任何模型服务。'
  },
  settings: {
    language: '语言',
    languageSystem: '跟随系统',
    saveFailed: '无法保存设置：{{message}}',
    loadFailed: '无法加载设置，已使用默认值：{{message}}'
  }
}

import type { Translation } from '../resources'

export const search: Translation['search'] = {
  label: '搜索对话和消息',
  placeholder: '搜索对话和消息',
  clear: '清除搜索',
  resultsLabel: '搜索结果',
  searching: '正在搜索…',
  noResults: '没有与“{{query}}”匹配的内容。',
  titleMatch: '标题',
  exactTitle: '文字匹配',
  semanticTitle: '语义相关',
  semanticSearching: '正在查找语义相关的消息…',
  similarity: '相似度 {{value}}'
}

import type { Translation } from '../resources'

export const app: Translation['app'] = {
  name: 'Context Lens',
  windowTitle: '{{title}} · Context Lens',
  recoveredTitle: '之前的数据库已损坏。',
  recoveredBody: '仍可读取的内容已全部复制到新文件中。损坏的文件已保留在 {{path}}。',
  recoveredCopied: '已恢复：{{list}}。',
  recoveredLost: '无法读取：{{list}}。',
  recoveredNothing: '损坏的文件中没有任何内容可以读取。',
  recoveredUnknown: '丢失了多少{{tables}}无法得知：文件的这一部分完全无法读取。',
  recoveredTableNames: {
    threads: '对话',
    messages: '消息',
    thread_summaries: '摘要',
    message_usage: '用量记录',
    context_builds: '检查器构建',
    settings: '设置',
    memories: '记忆',
    memory_history: '记忆历史',
    mcp_servers: 'MCP 服务器'
  },
  recoveredTables: {
    threads_one: '{{count}} 个对话',
    threads_other: '{{count}} 个对话',
    messages_one: '{{count}} 条消息',
    messages_other: '{{count}} 条消息',
    thread_summaries_one: '{{count}} 条摘要',
    thread_summaries_other: '{{count}} 条摘要',
    message_usage_one: '{{count}} 条用量记录',
    message_usage_other: '{{count}} 条用量记录',
    context_builds_one: '{{count}} 次检查器构建',
    context_builds_other: '{{count}} 次检查器构建',
    settings_one: '{{count}} 项设置',
    settings_other: '{{count}} 项设置',
    memories_one: '{{count}} 条记忆',
    memories_other: '{{count}} 条记忆',
    memory_history_one: '{{count}} 条记忆历史',
    memory_history_other: '{{count}} 条记忆历史',
    mcp_servers_one: '{{count}} 个 MCP 服务器',
    mcp_servers_other: '{{count}} 个 MCP 服务器'
  }
}

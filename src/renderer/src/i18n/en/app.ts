export const app = {
  name: 'Context Lens',
  windowTitle: '{{title}} · Context Lens',
  recoveredTitle: 'Your previous database was damaged.',
  recoveredBody:
    'Everything that could still be read was copied into a new file. The damaged file was kept at {{path}}.',
  recoveredCopied: 'Recovered: {{list}}.',
  recoveredLost: 'Could not be read: {{list}}.',
  recoveredNothing: 'Nothing could be read from the damaged file.',
  recoveredUnknown:
    'How many {{tables}} were lost is unknown: that part of the file could not be read at all.',
  recoveredTableNames: {
    threads: 'conversations',
    messages: 'messages',
    thread_summaries: 'summaries',
    message_usage: 'usage records',
    context_builds: 'inspector builds',
    settings: 'settings',
    memories: 'memories',
    memory_history: 'memory history entries',
    mcp_servers: 'MCP servers'
  },
  recoveredTables: {
    threads_one: '{{count}} conversation',
    threads_other: '{{count}} conversations',
    messages_one: '{{count}} message',
    messages_other: '{{count}} messages',
    thread_summaries_one: '{{count}} summary',
    thread_summaries_other: '{{count}} summaries',
    message_usage_one: '{{count}} usage record',
    message_usage_other: '{{count}} usage records',
    context_builds_one: '{{count}} inspector build',
    context_builds_other: '{{count}} inspector builds',
    settings_one: '{{count}} setting',
    settings_other: '{{count}} settings',
    memories_one: '{{count}} memory',
    memories_other: '{{count}} memories',
    memory_history_one: '{{count}} memory history entry',
    memory_history_other: '{{count}} memory history entries',
    mcp_servers_one: '{{count}} MCP server',
    mcp_servers_other: '{{count}} MCP servers'
  }
}

import type { Translation } from '../resources'

export const summaries: Translation['summaries'] = {
  notSmaller:
    '摘要未保存：它有 {{summary}} 个 token，并不少于它要替换的 {{replaced}} 个 token。没有任何改动。',
  history: '版本',
  compare: '压缩前后对比',
  restore: '恢复此版本',
  restored: '已恢复',
  current: '当前',
  versionLine: '第 {{version}} 版 · {{kind}} · {{replaced}} → {{summary}} 个 token',
  kinds: {
    auto: '自动',
    compress: '/compress',
    edit: '已编辑',
    restore: '已恢复'
  },
  before: '压缩前：被替换的内容',
  after: '压缩后：摘要',
  previousSummary: '上一版摘要（第 {{version}} 版）',
  noPrevious: '此前没有摘要。',
  replacedMessages_one: '折叠了 {{count}} 条消息',
  replacedMessages_other: '折叠了 {{count}} 条消息',
  noMessages: '没有折叠任何消息（编辑或恢复）。',
  close: '关闭',
  showCompare: '查看压缩前后对比',
  stale: '已过时：写入此摘要后，第 {{seq}} 条消息发生了变化。将在你发送下一条消息后重写。',
  paused:
    '自动摘要连续失败 {{count}} 次后已停止（{{message}}）。较早的消息仍然保存着，只是没有被摘要。',
  retry: '重试',
  running: '正在更新摘要…',
  exempt: '不纳入摘要',
  exemptHint: '已豁免：这条消息永远不会被折叠进对话摘要',
  exemptLabel: '不纳入摘要'
}

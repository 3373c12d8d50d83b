import type { Translation } from '../resources'

export const threadStats: Translation['threadStats'] = {
  total: '{{tokens}} token',
  barLabel: '上次请求用了 {{budget}} 个 token 中的 {{used}} 个（{{percent}} %）',
  noBuild: '尚未发送',
  details: '“{{title}}”的上下文',
  lastBuild: '上次请求，{{time}}：{{budget}} 个 token 中用了 {{used}} 个（{{percent}} %）',
  section: '{{section}}：{{used}}',
  cost: '累计费用：${{cost}}',
  costPartial: '累计费用：${{cost}}（另有 {{count}} 条回复没有价格）',
  costNone: '累计费用：暂无记录',
  summaryAt: '摘要最近更新于 {{time}}',
  summaryNever: '还没有摘要',
  sortLabel: '对话排序',
  sort: {
    recent: '最近活动',
    fullest: '上下文最满',
    cost: '费用最高'
  },
  filtered_one: '显示 {{total}} 个对话中有数据的 {{shown}} 个。',
  filtered_other: '显示 {{total}} 个对话中有数据的 {{shown}} 个。'
}

import type { Translation } from '../resources'

export const gauge: Translation['gauge'] = {
  recalled:
    '已检索：{{memories}} 条记忆，本对话较早的 {{thisThread}} 条消息，其他对话的 {{otherThreads}} 条消息',
  free: '预算中有 {{tokens}} 个 token 未使用',
  label: '上下文',
  buttonLabel: '{{source}}的上下文：{{budget}} 个 token 中用了 {{used}} 个。打开详情。',
  usage: '{{used}} / {{budget}}',
  window: '窗口 {{window}}',
  source: {
    draft: '草稿预览',
    sent: '上次发送的请求',
    next: '下一次请求'
  },
  heading: {
    draft: '如果现在发送这份草稿',
    sent: '上次发送的请求 · {{time}}',
    next: '下一次请求（草稿为空）'
  },
  totals: '{{budget}} 个 token 中用了 {{used}} 个 · 窗口 {{window}} · 安全网在 {{limit}}（85 %）',
  sectionRow: '{{used}} / {{budget}}',
  sectionItems_one: '{{n}} 项',
  sectionItems_other: '{{n}} 项',
  openSection: '在检查器中打开“{{section}}”',
  openHint: '点击某个部分，在检查器中打开它。',
  notesLabel: '关于这次请求',
  summaryInUse_one: '正在使用摘要：它代表 {{n}} 条较早的消息。',
  summaryInUse_other: '正在使用摘要：它代表 {{n}} 条较早的消息。',
  memoriesDropped_one: '{{n}} 条记忆因空间不足未放入。',
  memoriesDropped_other: '{{n}} 条记忆因空间不足未放入。',
  safetyNet: '安全网生效：{{what}}',
  safetyNetShrunk: '请求在窗口的 85 % 以内重新构建。',
  safetyNetTrimmed: '只发送消息的开头和结尾。',
  percent: '{{percent}} %',
  attachDraft: '作为文件附加',
  attachDraftHint:
    '草稿超过了输入部分的份额。作为附件随消息发送时，只发送其中最相关的部分，检查器会显示是哪些。',
  pastedFileName: '粘贴的文本.txt',
  nearBudget:
    '已用预算的 {{percent}} %。超出预算后，较早的消息和记忆会先让出位置；达到 {{limit}} 个 token（窗口的 85 %）时，安全网会重建请求。',
  overBudget:
    '超出预算（{{percent}} %）：较早的消息和记忆已让出位置，你的消息会完整发送。距离安全网（窗口的 85 %）还有 {{left}} 个 token。',
  wouldShrink:
    '如果现在发送，这次请求超过窗口的 85 %，会在 {{limit}} 个 token 内重新构建：较早的消息和记忆让出空间（{{dropped}} 条消息未放入）。',
  wouldTrim:
    '如果现在发送，你的消息放不进窗口：只发送开头和结尾（{{sent}} 个 token），完整内容仍会保存。'
}

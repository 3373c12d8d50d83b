import type { Translation } from '../resources'

export const compress: Translation['compress'] = {
  usage: '/compress [重点]',
  help: '把较早的消息合并进对话摘要；可选的重点主题会占摘要的大部分',
  discover: '输入 / 查看命令',
  running: '正在把较早的消息压缩进摘要…',
  focus: '重点：{{focus}}',
  done_one: '已将 {{count}} 条消息（{{tokens}} 个 token）压缩进摘要',
  done_other: '已将 {{count}} 条消息（{{tokens}} 个 token）压缩进摘要',
  doneBody_one: '最新的 1 条消息仍按原文发送。没有删除任何内容：只改变了发送给模型的内容。',
  doneBody_other:
    '最新的 {{count}} 条消息仍按原文发送。没有删除任何内容：只改变了发送给模型的内容。',
  modelFallback: '模型未能生成摘要（{{message}}），已改为不使用模型提取摘要。',
  nothingEmpty: '没有可压缩的内容：这个对话还没有消息。',
  nothingInTail_one: '暂时没有可压缩的内容：最新的消息总是按原文发送，更早的内容已在摘要中。',
  nothingInTail_other:
    '暂时没有可压缩的内容：最新的 {{count}} 条消息按原文发送（占用很少），更早的内容已在摘要中。',
  superseded: '压缩期间摘要被编辑过：已保留你的编辑，本次压缩已丢弃。',
  failed: '无法压缩：{{message}}'
}

import type { Translation } from '../resources'

export const promptCache: Translation['promptCache'] = {
  label: '提示缓存（Anthropic）',
  option5m: '5 分钟（默认）',
  option1h: '1 小时',
  explain:
    '仅适用于 Anthropic 模型：每次请求的开头会被缓存，在此时间内的下一次请求以输入价格的十分之一读取它。写入 1 小时缓存的费用是输入价格的 2 倍（5 分钟为 1.25 倍），适合消息之间停顿较长的情况。应用中显示的费用按 5 分钟写入计算。'
}

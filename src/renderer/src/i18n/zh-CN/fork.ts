import type { Translation } from '../resources'

export const fork: Translation['fork'] = {
  action: '从这里分支',
  hint: '新建一个对话，包含截至这条消息（含）的内容；之后的消息只留在当前对话中。',
  failed: '无法分支：{{reason}}',
  from: '分支自“{{title}}”',
  openOrigin: '打开“{{title}}”的第 {{seq}} 条消息'
}

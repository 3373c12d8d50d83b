import type { Translation } from '../resources'

export const history: Translation['history'] = {
  open: '导入与导出',
  title: '导入和导出对话',
  close: '关闭',
  importHeading: '导入',
  importHint:
    'ChatGPT 或 Claude 的数据导出（conversations.json），或 Context Lens 的 JSON 导出。格式根据文件内容识别。同一个文件再次导入不会重复添加。',
  withBranches: '同时导入被放弃的分支（编辑过的提问、重新生成的回答），作为单独的分支对话',
  chooseFile: '选择要导入的文件…',
  importing: '正在导入 {{file}}…',
  progress: '已导入 {{conversations}} 个对话、{{messages}} 条消息',
  cancel: '取消导入',
  cancelling: '正在取消…',
  doneTitle: '已导入 {{file}}',
  cancelledTitle: '已取消导入 {{file}}；之前已导入的内容会保留',
  stoppedTitle: '导入 {{file}} 时中止；出问题之前的对话已保留',
  detectedFormat: '格式：{{format}}',
  formats: {
    chatgpt: 'ChatGPT 导出',
    claude: 'Claude 导出',
    'context-lens': 'Context Lens 导出'
  },
  importedCounts_one:
    '新增 {{count}} 个对话（其中 {{forks}} 个分支），共 {{messages}} 条消息，以及 {{memories}} 条记忆。',
  importedCounts_other:
    '新增 {{count}} 个对话（其中 {{forks}} 个分支），共 {{messages}} 条消息，以及 {{memories}} 条记忆。',
  placeholders_one: '{{count}} 个图片或附件以带名称的占位符保存（导出文件中不含文件本身）。',
  placeholders_other: '{{count}} 个图片和附件以带名称的占位符保存（导出文件中不含文件本身）。',
  skippedHeading: '未导入：',
  skipped: {
    system: '{{count}} 条对话中从未显示的系统提示和自定义指令',
    tool: '{{count}} 条工具调用和工具结果（代码运行、浏览）',
    hidden: '{{count}} 条隐藏消息和隐藏的推理',
    empty: '{{count}} 条空消息',
    branch: '{{count}} 条被放弃分支上的消息（勾选“作为分支导入”即可保留）',
    unsupported: '{{count}} 条本应用无法显示的消息',
    already_imported: '{{count}} 个已导入过的对话',
    memory_exists: '{{count}} 条已存在的记忆'
  },
  indexingHint: '导入的消息现在即可搜索；按语义搜索会在索引完成后可用（见“记忆”）。',
  exportAllHeading: '导出全部对话',
  exportThreadHeading: '导出',
  exportThreadTitle: '导出“{{title}}”',
  formatLabel: '格式',
  format: {
    md: 'Markdown：便于阅读，含日期和角色',
    json: 'JSON：完整（标记、摘要、记忆），可再次导入'
  },
  withRequests: '包含实际发送给模型的请求',
  exportButton: '导出…',
  exporting: '正在导出…',
  exported_one: '已将 {{count}} 个对话（{{messages}} 条消息）保存到 {{path}}。',
  exported_other: '已将 {{count}} 个对话（{{messages}} 条消息）保存到 {{path}}。'
}

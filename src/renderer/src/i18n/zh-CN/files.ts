import type { Translation } from '../resources'

export const files: Translation['files'] = {
  attach: '为这条消息附加文件',
  attachThread: '为整个对话添加文件',
  threadFiles: '对话文件',
  threadFilesHint: '随本对话的每条消息一起发送。可将文件拖到这里。',
  dropHere: '松开即可把文件附加到你的消息',
  remove: '移除 {{name}}',
  reading_one: '正在读取 {{count}} 个文件…',
  reading_other: '正在读取 {{count}} 个文件…',
  chipTitle: '{{name}} · {{kind}} · {{size}} · {{chars}} 个字符',
  notEmbedded: '尚未向量化：如需切分，分块按文档顺序选取',
  refused: '未附加：{{name}}',
  failed: '无法附加 {{name}}：{{message}}',
  dismiss: '关闭',
  reasons: {
    too_large: '“{{name}}”超过了 {{limit}} 的大小上限。',
    too_long: '“{{name}}”的文本超过了 {{limit}} 个字符的上限。',
    binary: '“{{name}}”是二进制文件；只能附加文本、Markdown、代码、CSV/JSON 和 PDF。',
    encoding: '“{{name}}”不是 UTF-8 或 UTF-16 文本；请另存为 UTF-8 后重新附加。',
    empty: '“{{name}}”没有文本（空文件，或没有文字层的扫描版 PDF）。',
    pdf_unreadable: '“{{name}}”无法作为 PDF 读取。',
    unreadable: '“{{name}}”无法读取。'
  },
  inspector: {
    file: '{{name}}：已发送 {{sent}} / {{total}} 个分块',
    chunk: '分块 {{index}} · 第 {{from}}–{{to}} 行',
    whole: '整个文件',
    relevance: '相关度 {{score}}',
    byWords: '未排序'
  }
}

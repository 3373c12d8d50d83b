import type { Translation } from '../resources'

export const chat: Translation['chat'] = {
  noThreadTitle: '开始一段对话',
  noThreadBody: '从左侧选择一个对话，或新建一个。你写下的所有内容都保存在这台电脑上。',
  emptyThreadTitle: '这里还没有内容',
  emptyThreadBody: '在下方写下第一条消息。检查器会准确展示模型将收到的内容。',
  loading: '正在加载消息…',
  loadFailed: '无法加载此对话：{{message}}',
  messagesLabel: '消息',
  loadingOlder: '正在加载更早的消息…',
  olderFailed: '无法加载更早的消息；向上滚动可重试。',
  messageCount_one: '{{count}} 条消息',
  messageCount_other: '{{count}} 条消息',
  roles: {
    user: '你',
    assistant: '助手',
    system: '系统',
    tool: '工具'
  },
  composerLabel: '消息',
  placeholder: '输入消息…',
  hint: 'Enter 发送 · Shift+Enter 换行',
  send: '发送',
  sendFailed: '未发送：{{message}}',
  copy: '复制',
  copyMessage: '复制这条消息（原文，Markdown 格式）',
  copyCode: '复制这段代码',
  copyState: {
    copied: '已复制',
    failed: '无法复制'
  },
  versions: {
    label: '这条回复的各个版本',
    turnLabel: '这条消息的各个版本',
    previous: '上一个版本',
    next: '下一个版本',
    position: '{{n}} / {{m}}'
  },
  noModelTitle: '尚未配置模型服务。',
  noModelBefore: '消息会保存，但在设置中添加模型服务之前不会有回复。',
  noModelBody: '你的消息已保存。在配置模型服务之前不会有回复，因此这里不显示任何回答。',
  showInspector: '显示检查器',
  hideInspector: '隐藏检查器',
  inspector: '检查器',
  pin: '置顶',
  pinHint: '置顶的消息总会发送给模型',
  exclude: '排除',
  excludeHint: '排除的消息永远不会发送给模型',
  notSent: '不发送',
  flagFailed: '无法更改此消息：{{message}}',
  buildFailed: '你的消息已保存，但无法为其构建上下文：{{message}}',
  noModelAction: '设置模型服务',
  noModelOllama: '检测到本机正在运行 Ollama（{{count}} 个模型），可以一键添加。',
  stop: '停止',
  streaming: '正在回复…',
  replyEmpty: '空回复',
  emptyReply: {
    note: '模型结束了回复，但没有发送任何文字。',
    length: '它在写出内容前就用完了输出上限（常见于推理模型的思考过程）；这条回复不会再发给模型。',
    notSent: '这条回复会保留在这里，但不会再发给模型。'
  },
  replyStopped: '已停止',
  replyFailed: '未完成',
  regenerate: '重新生成',
  edit: '编辑',
  editLabel: '编辑消息',
  editResend: '保存并重新发送',
  superseded: '已被新的回复取代',
  branchedAway: '较早版本',
  modelLabel: '模型',
  modelDefault: '默认（{{model}}）',
  modelNone: '未选择模型',
  retryNotice: '请求过长，已按 {{budget}} 个 token 重新构建并重试。',
  errorTitle: '回复失败：{{message}}',
  errorKinds: {
    auth: '服务商拒绝了 API 密钥',
    rate_limit: '请求过于频繁',
    network: '网络错误',
    timeout: '请求超时',
    context_length: '请求超出了模型可接受的长度',
    server: '服务器错误',
    bad_response: '无法解析的响应',
    invalid_request: '请求被拒绝',
    aborted: '已停止'
  },
  errorActions: {
    auth: '检查密钥',
    retry: '重试',
    retryIn: '{{seconds}} 秒后重试',
    retryNow: '立即重试'
  },
  contextLengthHelp:
    '已自动缩小并重试过一次。可以排除较长的消息、在检查器中降低上下文预算，或选择窗口更大的模型。',
  usage: {
    tokens: '输入 {{prompt}} · 输出 {{completion}}',
    cache: '缓存读取 {{read}} · 写入 {{write}}',
    cost: '${{cost}}',
    estimated: '估算 {{estimated}}',
    thread: '本对话：{{tokens}} 个 token（服务商报告）',
    threadCost: '本对话：{{tokens}} 个 token · ${{cost}}（服务商报告）',
    title: '提示 {{prompt}} · 补全 {{completion}} · 缓存读取 {{read}} · 缓存写入 {{write}}'
  }
}

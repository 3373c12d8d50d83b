import type { Translation } from '../resources'

export const providers: Translation['providers'] = {
  title: '模型服务',
  add: '添加服务',
  detectOllama: '检测 Ollama',
  ollamaFound_one: 'Ollama 正在运行，有 {{count}} 个模型。',
  ollamaFound_other: 'Ollama 正在运行，有 {{count}} 个模型。',
  ollamaAdd: '添加 Ollama',
  ollamaMissing: '{{url}} 上没有 Ollama 响应。',
  encryptionUnavailable:
    '此系统没有安全存储，无法保存 API 密钥。无需密钥的本地服务（Ollama、LM Studio）仍可使用。',
  kind: '类型',
  name: '名称',
  baseUrl: '接口地址',
  optional: '（可选）',
  apiKey: 'API 密钥',
  apiKeyPlaceholder: '粘贴密钥；加密保存，之后不再显示',
  apiKeyStored: '已保存：{{hint}}（输入以替换）',
  models: '模型',
  modelId: '模型 ID',
  contextWindow: '上下文窗口',
  maxOutput: '最大输出',
  addModel: '添加模型',
  removeModel: '移除模型',
  test: '测试连接',
  testing: '正在测试…',
  testOk: '连接成功，用时 {{ms}} 毫秒。',
  testModels: '连接成功，用时 {{ms}} 毫秒。模型：{{models}}',
  testFailed: '失败：{{kind}}（{{message}}）',
  fetchModels: '列出模型',
  fetchingModels: '正在询问服务…',
  remoteModels: '该服务提供 {{count}} 个模型。添加你要用的：',
  remoteModelsNone: '该服务未列出任何模型。',
  remoteModelsFailed: '无法列出模型：{{kind}}（{{message}}）',
  remoteModelsAppError: '应用错误',
  httpStatus: '（HTTP {{status}}）',
  save: '保存',
  saved: '已保存',
  remove: '删除服务',
  defaultModel: '默认模型',
  noDefault: '无',
  addModelShort: '添加',
  addThisModel: '添加 {{model}}',
  modelAdded: '已添加',
  modelNote: {
    priced:
      '每百万 token：输入 ${{input}} · 输出 ${{output}}，来自 {{date}} 的模型目录。你填写的数值优先。',
    local: '在这台电脑上运行：不按 token 计费。',
    guess:
      '模型目录中没有这个模型：上下文窗口和最大输出可能是估计值（请查看模型说明），没有价格，因此不显示费用。'
  }
}

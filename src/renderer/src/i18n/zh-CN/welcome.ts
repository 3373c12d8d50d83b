import type { Translation } from '../resources'

export const welcome: Translation['welcome'] = {
  title: '欢迎使用 Context Lens',
  body: '一个让你准确看到模型收到了什么的聊天助手：发送的每条消息、记忆和文件，各自的花费，以及哪些内容为什么被略去。',
  needsProvider:
    '要获得回复，请先添加模型服务：OpenAI 或 Anthropic 的 API 密钥，或你电脑上的服务（Ollama、LM Studio、vLLM）。',
  addProvider: '添加模型服务',
  ollamaFound_one: '检测到本机正在运行 Ollama（{{count}} 个模型），将为你自动填好。',
  ollamaFound_other: '检测到本机正在运行 Ollama（{{count}} 个模型），将为你自动填好。',
  kindsLabel: '或从这里开始：',
  localFirst: '对话保存在这台电脑上；只有你发送的内容会交给模型服务。'
}

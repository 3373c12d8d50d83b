import type { Message } from '@shared/domain'

/**
 * The reply a sent build produced: the first current reply after its user message (or, for
 * the live preview, the thread's latest reply with usage).
 */
export function replyFor(messages: Message[], userMessageId: number | null): Message | null {
  if (userMessageId === null) {
    return (
      [...messages]
        .reverse()
        .find((message) => message.role === 'assistant' && message.reply?.usage) ?? null
    )
  }
  const index = messages.findIndex((message) => message.id === userMessageId)
  if (index < 0) return null
  const replies: Message[] = []
  for (const message of messages.slice(index + 1)) {
    if (message.role === 'user') break
    if (message.role === 'assistant' && message.reply) replies.push(message)
  }
  return replies.find((reply) => reply.reply?.supersededBy == null) ?? replies.at(-1) ?? null
}

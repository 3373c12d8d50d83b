import type { ToolCall } from '@shared/domain'
import type { TokenCounter } from './tokenCounter'

/**
 * Chat formatting costs tokens beyond the text. OpenAI's token-counting cookbook gives 3 per
 * message (<|start|>{role}<|message|> ... <|end|>) and 3 per request to prime the reply.
 */
export const MESSAGE_FRAMING_TOKENS = 3
export const REPLY_PRIMING_TOKENS = 3
/**
 * A tool call's id and JSON wrapper beyond its name and arguments. Providers do not document
 * this; 8 is an approximation that the per-model correction factor refines from real usage.
 */
export const TOOL_CALL_FRAMING_TOKENS = 8

export interface CountableMessage {
  content: string
  toolCalls?: readonly ToolCall[] | null
}

/**
 * The count to cache with a message when it is stored: its text plus its tool calls' names
 * and arguments. Framing is added at build time, so cached counts stay valid if it changes.
 */
export function countMessageTokens(counter: TokenCounter, message: CountableMessage): number {
  let tokens = counter.count(message.content)
  for (const call of message.toolCalls ?? []) {
    tokens += counter.count(call.name) + counter.count(call.arguments) + TOOL_CALL_FRAMING_TOKENS
  }
  return tokens
}

/**
 * Token arithmetic for one build: the model's counter plus its correction factor (provider
 * usage divided by our count, 1 until calibrated). Cached counts are scaled, never recounted.
 */
export class TokenMeter {
  constructor(
    readonly counter: TokenCounter,
    readonly correction: number
  ) {}

  /** A raw count with the correction applied. */
  scale(raw: number): number {
    return this.correction === 1 ? raw : Math.ceil(raw * this.correction)
  }

  /** A text the build sends as one message of its own, framing included. */
  message(text: string): number {
    return this.scale(this.counter.count(text)) + MESSAGE_FRAMING_TOKENS
  }

  /** A stored message from its cached count, framing included. */
  stored(tokenCount: number): number {
    return this.scale(tokenCount) + MESSAGE_FRAMING_TOKENS
  }

  /** A text that becomes part of a larger message (a line of the memories block). */
  fragment(text: string): number {
    return this.scale(this.counter.count(text))
  }

  /** The longest prefix of `text` whose message cost stays within `maxTokens`. */
  truncateMessage(text: string, maxTokens: number): string {
    const contentBudget = Math.floor((maxTokens - MESSAGE_FRAMING_TOKENS) / this.correction)
    return contentBudget <= 0 ? '' : this.counter.truncate(text, contentBudget)
  }
}

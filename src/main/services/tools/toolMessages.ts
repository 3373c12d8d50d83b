/**
 * Writes the tool loop's steps as they happen: the model's call (an assistant message with
 * `tool_calls`, with its usage and cost) and each result (a `tool` message whose
 * `tool_call_id` names the call). Each is stored before the next step starts and pushed to the
 * chat as `tools:step`; stored tool messages are never rewritten later (pruning happens in
 * what is sent, so "show full output" reads the original).
 */
import type { BuiltContext } from '@shared/context'
import type { Message, ToolCall } from '@shared/domain'
import type { ChatFinishReason, ChatUsage, ModelRef } from '@shared/providers'
import { countMessageTokens } from '../../context/tokens/messageTokens'
import type { TokenCounter } from '../../context/tokens/tokenCounter'
import type { MessageRepository } from '../../store/messageRepository'
import type { Publish } from '../events'
import type { ResolvedModel } from '../providers/catalog'
import { costOf } from '../providers/usage'
import { runSliced } from '../slicedWork'
import type { ThreadMessageCache } from '../chat/threadMessageCache'
import type { ToolRun } from './toolService'

export interface ToolExecutor {
  execute(threadId: string, call: ToolCall, signal: AbortSignal): Promise<ToolRun>
}

interface Job {
  threadId: string
  streamId: string
  target: { ref: ModelRef; model: ResolvedModel }
}

interface Deps {
  now: () => number
  tokens: TokenCounter
  publish: Publish
}

export interface ToolMessageWriter {
  calls(
    text: string,
    calls: ToolCall[],
    usage: ChatUsage | null,
    finish: ChatFinishReason | null
  ): Message
  result(call: ToolCall, run: ToolRun): Promise<Message>
  /** Whether any step was stored (a retry must not repeat them). */
  any(): boolean
}

export function toolMessages(
  messages: MessageRepository,
  cache: ThreadMessageCache,
  deps: Deps,
  job: Job,
  build: () => { context: BuiltContext }
): ToolMessageWriter {
  let stored = 0
  const publish = (message: Message) => {
    stored++
    cache.appended(message)
    deps.publish('tools:step', { threadId: job.threadId, streamId: job.streamId, message })
    deps.publish('threads:changed', { threadId: job.threadId })
    return message
  }
  return {
    calls(text, calls, usage, finish) {
      return publish(
        messages.appendReply(
          {
            threadId: job.threadId,
            role: 'assistant',
            content: text,
            toolCalls: calls,
            tokenCount: countMessageTokens(deps.tokens, { content: text, toolCalls: calls }),
            createdAt: deps.now()
          },
          {
            providerId: job.target.ref.providerId,
            modelId: job.target.ref.modelId,
            status: 'complete',
            usage,
            cost: usage ? costOf(usage, job.target.model) : null,
            estimatedPromptTokens: build().context.tokenStats.total,
            finishReason: finish,
            supersededBy: null
          }
        )
      )
    },
    async result(call, run) {
      // Outputs can be megabytes: counted in slices that give the event loop back.
      const { tokens } = await runSliced(deps.tokens.countSteps(run.content))
      return publish(
        messages.append({
          threadId: job.threadId,
          role: 'tool',
          content: run.content,
          toolCallId: call.id,
          tokenCount: tokens,
          createdAt: deps.now()
        })
      )
    },
    any: () => stored > 0
  }
}

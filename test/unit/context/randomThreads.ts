/**
 * Seeded random build requests (chat, tool-call groups, pinned and excluded messages, a summary,
 * memories) for property tests: the same seed always gives the same request.
 */
import type { BuildRequest, ContextMessage } from '@shared/context'
import { seededRandom as seeded } from '../../../scripts/bench/syntheticThread'
import { message, toolGroup } from './threadBuilder'

const WORDS =
  'the budget window cache summary parser amounts test 金额 解析 上下文 file error reply'.split(' ')

export function randomThread(seed: number, length: number): ContextMessage[] {
  const random = seeded(seed)
  const text = (words: number) =>
    Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ')
  const messages: ContextMessage[] = []
  let seq = 1
  while (messages.length < length) {
    const roll = random()
    if (roll < 0.15 && messages.length > 0) {
      const ids = Array.from({ length: 1 + Math.floor(random() * 2) }, (_, i) => `c${seq}_${i}`)
      const group = toolGroup(seq, ids, text(5 + Math.floor(random() * 60)))
      messages.push(...group)
      seq += group.length
      continue
    }
    const extra = {
      pinned: random() < 0.03,
      excluded: random() < 0.03
    }
    const role = messages.length % 2 === 0 ? 'user' : 'assistant'
    messages.push(message(seq++, role, text(3 + Math.floor(random() * 80)), extra))
  }
  return messages
}

export function randomRequest(seed: number, length: number): BuildRequest {
  const random = seeded(seed * 7 + 1)
  const messages = randomThread(seed, length)
  const summarized = random() < 0.5 ? Math.floor(random() * length * 0.5) : 0
  return {
    systemPrompt: random() < 0.8 ? 'You are a careful assistant. '.repeat(1 + (seed % 5)) : '',
    summary:
      summarized > 0
        ? { content: `Summary ${seed}: `.repeat(10), lastMessageSeq: summarized }
        : null,
    memories: Array.from({ length: Math.floor(random() * 8) }, (_, i) => ({
      id: `m${i}`,
      content: `memory ${i} of seed ${seed} about the budget`,
      score: random()
    })),
    messages,
    input: `question ${seed} about the parser`
  }
}

import type { MemoryCategory } from '@shared/domain'
import { isMemoryCategory } from '@renderer/features/memory/isMemoryCategory'

/** What a retrieved item links to: its trace id is `memory:<id>` or `message:<id>`. */
interface RetrievedRef {
  kind: 'memory' | 'message'
  id: number
}

export function parseRetrievedRef(traceId: string): RetrievedRef | null {
  const match = /^(memory|message):(\d+)$/.exec(traceId)
  if (!match) return null
  return { kind: match[1] as RetrievedRef['kind'], id: Number(match[2]) }
}

/**
 * Main writes a retrieved item's source in English for logs and the CLI
 * (src/main/services/memoryRecall.ts): `memory · <category>` or `message #<seq> in “<title>”`.
 * Read back into parts so the inspector can say it in the UI language; null for other text.
 */
type SourceParts =
  | { kind: 'memory'; category: MemoryCategory }
  | { kind: 'message'; seq: string; title: string | null }

export function parseSource(source: string | undefined): SourceParts | null {
  if (!source) return null
  const memory = /^memory · (\w+)$/.exec(source)
  if (memory?.[1] && isMemoryCategory(memory[1])) return { kind: 'memory', category: memory[1] }
  const message = /^message #(\d+|\?)(?: in “(.*)”)?$/s.exec(source)
  if (message?.[1]) return { kind: 'message', seq: message[1], title: message[2] ?? null }
  return null
}

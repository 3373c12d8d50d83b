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

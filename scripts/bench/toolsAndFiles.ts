/**
 * What files and tools cost the builder (issue #12): the tokens 100 tool schemas take as the
 * provider receives them and the build time with them beside the same build without, and the
 * throughput of chunking a 2 MB file on its structure (Markdown and code) beside the cost of
 * only counting it, measured in the same run.
 */
import { DEFAULT_CONTEXT_CONFIG } from '@shared/contextConfig'
import type { BuildRequest, ToolInput } from '@shared/context'
import { chunkDocument, type DocumentKind } from '../../src/main/context/attachments/chunkDocument'
import { buildContext } from '../../src/main/context/contextBuilder'
import { tokenCounterFor } from '../../src/main/context/tokens/tokenCounter'
import { syntheticThread } from './syntheticThread'
import { time, type Timing } from './timing'

const PARAMETER_NAMES = ['path', 'query', 'limit', 'recursive', 'encoding', 'pattern', 'branch']

/** A tool like MCP servers list them: a sentence or two and two to five typed parameters. */
function syntheticTools(count: number): ToolInput[] {
  return Array.from({ length: count }, (_, i) => {
    const names = PARAMETER_NAMES.slice(0, 2 + (i % 4))
    return {
      name: `server${i % 7}_tool_${i}`,
      description: `Tool ${i}: reads, searches or changes resources of server ${i % 7}. Use it when the user asks about item ${i}; it returns JSON.`,
      parameters: {
        type: 'object',
        properties: Object.fromEntries(
          names.map((name, j) => [
            name,
            j % 3 === 2
              ? { type: 'boolean', description: `Whether to ${name}.` }
              : { type: j % 3 === 1 ? 'number' : 'string', description: `The ${name} to use.` }
          ])
        ),
        required: names.slice(0, 1)
      },
      relevance: ((i * 37) % 100) / 100,
      source: `server${i % 7}`
    }
  })
}

export interface ToolFigures {
  tools: number
  /** Tokens of all schemas as sent, and what the default 5 % share let through at 128k. */
  schemaTokens: number
  sentTools: number
  sentTokens: number
  withTools: Timing
  without: Timing
}

export function toolFigures(quick: boolean): ToolFigures {
  const config = DEFAULT_CONTEXT_CONFIG
  const thread = syntheticThread(10_000, tokenCounterFor(config.model))
  const tools = syntheticTools(100)
  const request = (run: number, withTools: boolean): BuildRequest => ({
    systemPrompt: 'You are Context Lens.',
    summary: null,
    memories: [],
    messages: thread.messages,
    input: `Which tool lists the files? (draft ${run})`,
    ...(withTools && { tools })
  })
  const runs = quick ? 30 : 100
  const sample = buildContext(request(0, true), config)
  const tokens = sample.trace.filter((entry) => entry.kind === 'tool')
  return {
    tools: tools.length,
    schemaTokens: tokens.reduce((sum, entry) => sum + entry.tokens, 0),
    sentTools: sample.tools.length,
    sentTokens: sample.tokenStats.sections.tools.used,
    withTools: time(runs, (run) => buildContext(request(run, true), config)),
    without: time(runs, (run) => buildContext(request(run, false), config))
  }
}

/** About 2 MB of Markdown or TypeScript with the structure real files have. */
function syntheticFile(kind: DocumentKind, bytes: number): string {
  const parts: string[] = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const part =
      kind === 'markdown'
        ? `## Section ${i}\n\n${'The importer reads each row, parses the amount and the date, and reports errors. '.repeat(4 + (i % 5))}\n\n- item ${i}\n- another item\n`
        : `// Parses row ${i}.\nexport function parseRow${i}(line: string): Row {\n${'  const cells = line.split(";").map((cell) => cell.trim())\n'.repeat(3 + (i % 6))}  return { date: cells[0], amount: Number(cells[2]) }\n}\n`
    parts.push(part)
    size += part.length
  }
  return parts.join('\n')
}

export interface ChunkingFigures {
  kind: DocumentKind
  megabytes: number
  chunks: number
  chunking: Timing
  /** Counting the same text once, the floor any token-bounded chunking pays. */
  counting: Timing
}

export function chunkingFigures(kind: DocumentKind, quick: boolean): ChunkingFigures {
  const counter = tokenCounterFor(DEFAULT_CONTEXT_CONFIG.model)
  const text = syntheticFile(kind, 2 * 1024 * 1024)
  const count = (value: string) => counter.count(value)
  const runs = quick ? 2 : 5
  const chunks = chunkDocument(text, kind, 400, count).length
  return {
    kind,
    megabytes: Buffer.byteLength(text) / (1024 * 1024),
    chunks,
    chunking: time(runs, () => chunkDocument(text, kind, 400, count)),
    counting: time(runs, () => count(text))
  }
}

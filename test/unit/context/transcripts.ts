/**
 * fast-check arbitraries for provider transcripts: English and Chinese turns, tool loops with
 * parallel calls, long and duplicated tool output. Every generated transcript is valid by the
 * compressor's own rules, so the properties can demand that compression keeps it valid.
 */
import fc from 'fast-check'
import type { ProviderMessage } from '@shared/context'
import type { ToolCall } from '@shared/domain'

const EN_WORDS = [
  'import',
  'the',
  'parser',
  'fails',
  'on',
  'decimal',
  'commas',
  'please',
  'fix',
  'tests',
  'we',
  'decided',
  'to',
  'use',
  'src/app.ts',
  'config.json',
  'error',
  'quickly'
]
const ZH_PHRASES = [
  '帮我',
  '修复',
  '导入',
  '功能',
  '金额',
  '解析',
  '失败了',
  '我们决定',
  '使用',
  '测试',
  '文件',
  '一下'
]

const englishText = fc
  .array(fc.constantFrom(...EN_WORDS), { minLength: 1, maxLength: 30 })
  .map((w) => w.join(' '))
const chineseText = fc
  .array(fc.constantFrom(...ZH_PHRASES), { minLength: 1, maxLength: 25 })
  .map((w) => w.join(''))
const text = fc.oneof(englishText, chineseText)

/** A tool result: short, a long multi-line output, or one of a few repeated outputs. */
const toolOutput = fc.oneof(
  text,
  fc
    .tuple(text, fc.integer({ min: 5, max: 120 }))
    .map(([line, n]) => Array.from({ length: n }, (_, i) => `${i}: ${line}`).join('\n')),
  fc.constantFrom(
    'FAIL test/csv.test.ts\nError: expected 1234.56, got 1.234\n' +
      'at parse (src/csv.ts:10)\n'.repeat(12),
    '{"rows": 120, "status": "ok", "file": "data/input.csv"}'.repeat(4)
  )
)

const toolArguments = fc.oneof(
  fc.constantFrom('{"path":"src/app.ts"}', '{"command":"npm test"}', '{}'),
  fc
    .string({ minLength: 300, maxLength: 900 })
    .map((content) => JSON.stringify({ path: 'src/big.ts', content }))
)

interface ToolStep {
  text: string
  calls: { name: string; args: string; output: string }[]
}

const toolStep: fc.Arbitrary<ToolStep> = fc.record({
  text: fc.oneof(fc.constant(''), text),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom('read_file', 'run_tests', 'search', 'write_file'),
      args: toolArguments,
      output: toolOutput
    }),
    { minLength: 1, maxLength: 3 }
  )
})

interface Turn {
  user: string
  steps: ToolStep[]
  reply: string
}

const turn: fc.Arbitrary<Turn> = fc.record({
  user: text,
  steps: fc.array(toolStep, { maxLength: 3 }),
  reply: text
})

export interface TranscriptOptions {
  minTurns?: number
  maxTurns?: number
}

/** system? then user → (assistant tool calls → results)* → assistant, ending with a user turn or
 * an unfinished tool loop. */
export function transcript(options: TranscriptOptions = {}): fc.Arbitrary<ProviderMessage[]> {
  return fc
    .record({
      system: fc.option(text, { nil: undefined }),
      turns: fc.array(turn, {
        minLength: options.minTurns ?? 1,
        maxLength: options.maxTurns ?? 14
      }),
      last: text,
      endsInToolLoop: fc.boolean(),
      loop: toolStep
    })
    .map(({ system, turns, last, endsInToolLoop, loop }) => {
      let nextId = 0
      const messages: ProviderMessage[] = []
      const pushStep = (step: ToolStep): void => {
        const calls = step.calls.map((c) => ({
          id: `call_${nextId++}`,
          name: c.name,
          arguments: c.args
        }))
        messages.push({ role: 'assistant', content: step.text, toolCalls: calls })
        calls.forEach((call, i) =>
          messages.push({ role: 'tool', content: step.calls[i]!.output, toolCallId: call.id })
        )
      }
      if (system !== undefined) messages.push({ role: 'system', content: system })
      for (const t of turns) {
        messages.push({ role: 'user', content: t.user })
        t.steps.forEach(pushStep)
        messages.push({ role: 'assistant', content: t.reply })
      }
      messages.push({ role: 'user', content: last })
      if (endsInToolLoop) pushStep(loop)
      return messages
    })
}

// Hand-written transcripts for the example tests.

export const sys = (content = 'You are a helpful assistant.'): ProviderMessage => ({
  role: 'system',
  content
})
export const user = (content: string): ProviderMessage => ({ role: 'user', content })
export const assistant = (content: string, toolCalls?: ToolCall[]): ProviderMessage =>
  toolCalls ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content }
export const tool = (toolCallId: string, content: string): ProviderMessage => ({
  role: 'tool',
  content,
  toolCallId
})
export const call = (id: string, name = 'read_file', args = '{"path":"src/app.ts"}'): ToolCall => ({
  id,
  name,
  arguments: args
})
export const lines = (n: number, text = 'const value = parse(row)'): string =>
  Array.from({ length: n }, (_, i) => `${i + 1}: ${text}`).join('\n')

/** A long working session: every turn reads a file and answers. */
export function session(
  turns: number,
  firstUser = 'Help me fix the CSV import.'
): ProviderMessage[] {
  const messages: ProviderMessage[] = [sys(), user(firstUser)]
  for (let t = 0; t < turns; t++) {
    if (t > 0) messages.push(user(`Step ${t}: now look at src/file${t}.ts please.`))
    messages.push(assistant('', [call(`c${t}`, 'read_file', `{"path":"src/file${t}.ts"}`)]))
    messages.push(tool(`c${t}`, lines(60, `line of src/file${t}.ts`)))
    messages.push(assistant(`Read src/file${t}.ts; we decided to keep step ${t} as it is.`))
  }
  messages.push(user('Now add a test for 03.02.2024.'))
  return messages
}

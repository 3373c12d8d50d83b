import { describe, expect, it } from 'vitest'
import {
  EXTRACTIVE_MARKER,
  extractiveSummary
} from '../../../src/main/context/summary/extractiveSummary'
import { REDACTED, redactSecrets } from '../../../src/main/context/summary/redactSecrets'
import {
  FallbackSummarizer,
  prepareSummaryRequest,
  summarizeWithFallback,
  SummarizerError,
  type Summarizer
} from '../../../src/main/context/summary/summarizer'
import { detectLanguage } from '../../../src/main/context/summary/summaryLanguage'
import { buildSummaryPrompt } from '../../../src/main/context/summary/summaryPrompt'
import { renderTemplate, SUMMARY_SECTIONS } from '../../../src/main/context/summary/summaryTemplate'
import { planSummaryUpdate, windowStartSeq } from '../../../src/main/context/summary/summaryUpdate'
import { buildContext } from '../../../src/main/context/contextBuilder'
import type { ProviderMessage } from '@shared/context'
import { chat, config, message, request, toolGroup } from './threadBuilder'

const english: ProviderMessage[] = [
  { role: 'user', content: 'Please fix the CSV import in src/import/csv.ts.' },
  {
    role: 'assistant',
    content: 'The parser uses parseFloat. We decided to use a locale-aware parser instead.',
    toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"src/import/parseAmount.ts"}' }]
  },
  {
    role: 'tool',
    content: 'Error: expected 1234.56, got 1.234\nat parse (src/csv.ts:10)',
    toolCallId: 'c1'
  },
  { role: 'user', content: 'Also keep the amounts in integer cents.' }
]

const chinese: ProviderMessage[] = [
  { role: 'user', content: '帮我修复一下 CSV 导入，金额 1.234,56 解析错了。' },
  {
    role: 'assistant',
    content: '我们决定改用按区域设置解析的函数，放在 src/import/parseAmount.ts。'
  },
  { role: 'tool', content: '测试失败：期望 123456，实际 1234', toolCallId: 'x' },
  { role: 'user', content: '好的，日期 03.02.2024 也一起修一下。' }
]

const occurrences = (text: string, part: string): number => text.split(part).length - 1

describe('the summary prompt', () => {
  it('contains the previous summary exactly once and the new turns', () => {
    const previous = '## Goal\nImport bank CSV files.\n\n## Remaining work\n- amounts'
    const prompt = buildSummaryPrompt({
      previousSummary: previous,
      newMessages: english,
      language: 'en',
      maxTokens: 2_000
    })
    expect(occurrences(prompt, previous)).toBe(1)
    expect(prompt).toContain('Update it with the new turns below')
    expect(prompt).toContain('[user]\nAlso keep the amounts in integer cents.')
    expect(prompt).toContain('[assistant calls read_file] {"path":"src/import/parseAmount.ts"}')
    expect(prompt).toContain('[tool result: read_file]\nError: expected 1234.56')
    expect(prompt).toContain('Keep the summary under 2000 tokens.')
    expect(prompt).not.toContain('Focus topic')
  })

  it('starts fresh without a previous summary', () => {
    const prompt = buildSummaryPrompt({
      previousSummary: null,
      newMessages: english,
      language: 'en'
    })
    expect(prompt).toContain('Summarize the turns below.')
    expect(prompt).not.toContain('<previous-summary>')
  })

  it('asks for the whole checkpoint template, in the user language', () => {
    expect(detectLanguage(english)).toBe('en')
    expect(detectLanguage(chinese)).toBe('zh')
    const en = buildSummaryPrompt({ previousSummary: null, newMessages: english, language: 'en' })
    for (const heading of [
      'Goal',
      'Constraints and preferences',
      'Completed actions',
      'Active state',
      'Blocked',
      'Key decisions',
      'Resolved questions',
      'Pending user asks',
      'Relevant files',
      'Remaining work',
      'Critical context'
    ]) {
      expect(en).toContain(`## ${heading}\n`)
    }
    const request = prepareSummaryRequest({ newMessages: chinese, maxTokens: 1_000 })
    expect(request.language).toBe('zh')
    for (const heading of [
      '目标',
      '约束与偏好',
      '已完成的操作',
      '当前状态',
      '受阻事项',
      '关键决策',
      '已解决的问题',
      '待处理的用户请求',
      '相关文件',
      '剩余工作',
      '关键上下文'
    ]) {
      expect(request.prompt).toContain(`## ${heading}\n`)
    }
    expect(request.prompt).toContain('使用简体中文撰写')
    expect(request.prompt).not.toContain('## Goal')
    expect(renderTemplate('zh').match(/^## /gm)).toHaveLength(SUMMARY_SECTIONS.length)
  })

  it('gives a focus topic most of the budget', () => {
    const en = buildSummaryPrompt({
      previousSummary: null,
      newMessages: english,
      focusTopic: 'amounts',
      language: 'en'
    })
    expect(en).toContain('Focus topic: "amounts". Spend about two thirds of the summary on it')
    const zh = buildSummaryPrompt({
      previousSummary: null,
      newMessages: chinese,
      focusTopic: '日期',
      language: 'zh'
    })
    expect(zh).toContain('重点主题：“日期”')
  })

  it('clips huge messages but keeps their start and end', () => {
    const huge = `START ${'x'.repeat(20_000)} END`
    const prompt = buildSummaryPrompt({
      previousSummary: null,
      newMessages: [{ role: 'user', content: huge }],
      language: 'en'
    })
    expect(prompt).toContain('START')
    expect(prompt).toContain('END')
    expect(prompt).toMatch(/characters omitted/)
    expect(prompt.length).toBeLessThan(8_000)
  })
})

describe('redacting secrets', () => {
  const cases: [string, string, string][] = [
    ['Anthropic key', 'key: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx', 'sk-ant-api03'],
    ['OpenAI key', 'export OPENAI=sk-proj-AbCdEfGhIjKlMnOpQrStUv12', 'sk-proj-AbCd'],
    ['legacy OpenAI key', 'use sk-AbCdEfGhIjKlMnOpQrStUvWxYz012345 here', 'sk-AbCd'],
    ['Bearer token', 'Authorization: Bearer abc123.def456.ghi789', 'abc123'],
    ['AWS access key id', 'aws id AKIAIOSFODNN7EXAMPLE ok', 'AKIAIOSFODNN7EXAMPLE'],
    [
      'AWS secret',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'wJalrXUtnFEMI'
    ],
    ['GitHub token', 'token ghp_1234567890abcdefghijABCDEFGHIJ123456 pushed', 'ghp_1234'],
    [
      'GitHub fine-grained token',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
      'github_pat_11'
    ],
    [
      'JWT',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N',
      'eyJhbGci'
    ],
    ['api_key=value', 'api_key=abcdef123456', 'abcdef123456'],
    ['JSON password', '{"password": "hunter2hunter2"}', 'hunter2'],
    ['env token', 'GITHUB_TOKEN: very-secret-value', 'very-secret-value'],
    [
      'private key',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----',
      'MIIEow'
    ]
  ]

  it.each(cases)('removes a %s', (_kind, text, secret) => {
    const redacted = redactSecrets(text)
    expect(redacted).not.toContain(secret)
    expect(redacted).toContain(REDACTED)
    expect(redactSecrets(redacted)).toBe(redacted)
  })

  it('keeps what only looks like one', () => {
    for (const text of [
      'max_tokens=4096 and token_count: 12',
      'the bearer of bad news',
      'read src/import/parseAmount.ts and sk-ip the rest',
      'password: short',
      '我的密码已经改了'
    ]) {
      expect(redactSecrets(text)).toBe(text)
    }
  })

  it('is applied to everything the summarizer reads', () => {
    const request = prepareSummaryRequest({
      previousSummary: 'Uses key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt.',
      newMessages: [
        { role: 'user', content: 'my token is ghp_1234567890abcdefghijABCDEFGHIJ123456' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            {
              id: 'c',
              name: 'http',
              arguments: '{"headers":{"Authorization":"Bearer sk-live-1234567890abcdef"}}'
            }
          ]
        },
        { role: 'tool', content: 'ok', toolCallId: 'c' }
      ],
      maxTokens: 500
    })
    expect(request.prompt).not.toMatch(/sk-ant|ghp_1234|sk-live/)
    expect(JSON.stringify(request.newMessages)).not.toMatch(/ghp_1234|sk-live/)
    expect(request.previousSummary).toBe('Uses key [REDACTED].')
  })
})

describe('the extractive fallback summary', () => {
  it('lists user asks, decisions, files and errors, and says no model wrote it', () => {
    const text = extractiveSummary(english, 'en')
    expect(text).toContain(`[${EXTRACTIVE_MARKER.en}`)
    expect(text).toContain(
      '## User asks\n- Please fix the CSV import in src/import/csv.ts.\n- Also keep the amounts in integer cents.'
    )
    expect(text).toContain('## Key decisions\n- We decided to use a locale-aware parser instead.')
    expect(text).toContain(
      '## Relevant files\n- src/import/csv.ts\n- src/import/parseAmount.ts\n- src/csv.ts'
    )
    expect(text).toContain('## Errors\n- Error: expected 1234.56, got 1.234')
    expect(text).toContain('## Tools used\n- read_file')
  })

  it('is deterministic and bounded', () => {
    const many = Array.from({ length: 300 }, (_, i): ProviderMessage => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `Request ${i}: please change src/module${i}.ts; we decided to keep ${i}.`
    }))
    const a = extractiveSummary(many, 'en', { maxChars: 1_500 })
    expect(extractiveSummary(many, 'en', { maxChars: 1_500 })).toBe(a)
    expect(a.length).toBeLessThanOrEqual(1_500)
    // The newest asks win when there are too many.
    expect(a).toContain('Request 298')
  })

  it('writes Chinese for a Chinese thread', () => {
    const text = extractiveSummary(chinese, 'zh')
    expect(text).toContain(EXTRACTIVE_MARKER.zh)
    expect(text).toContain('## 用户请求\n- 帮我修复一下 CSV 导入，金额 1.234,56 解析错了。')
    expect(text).toContain(
      '## 关键决策\n- 我们决定改用按区域设置解析的函数，放在 src/import/parseAmount.ts。'
    )
    expect(text).toContain('## 相关文件\n- src/import/parseAmount.ts')
    expect(text).toContain('## 错误\n- 测试失败：期望 123456，实际 1234')
  })

  it('puts the focus first and keeps the previous summary', () => {
    const text = extractiveSummary(english, 'en', {
      focusTopic: 'cents',
      previousSummary: 'Earlier: set up the project.'
    })
    expect(text.indexOf('## Focus: cents')).toBeLessThan(text.indexOf('## User asks'))
    expect(text).toContain('- Also keep the amounts in integer cents.')
    expect(text).toContain('## Earlier summary\nEarlier: set up the project.')
  })

  it('redacts what it quotes', () => {
    const text = extractiveSummary(
      [{ role: 'user', content: 'Use sk-ant-api03-AbCdEfGhIjKlMnOpQrSt please' }],
      'en'
    )
    expect(text).not.toContain('sk-ant')
  })
})

describe('summarizer failures', () => {
  const req = prepareSummaryRequest({ newMessages: english, maxTokens: 1_000 })
  const failing = (error: Error): Summarizer => ({
    source: 'model',
    summarize: () => Promise.reject(error)
  })

  it('uses the model summary when it works', async () => {
    const model: Summarizer = { source: 'model', summarize: async () => ' ## Goal\nImport CSV ' }
    expect(await summarizeWithFallback(model, req)).toEqual({
      status: 'updated',
      text: '## Goal\nImport CSV',
      source: 'model'
    })
  })

  it('leaves the stored summary alone on auth and network failures', async () => {
    expect(await summarizeWithFallback(failing(new SummarizerError('401', 'auth')), req)).toEqual({
      status: 'retry_later',
      error: '401'
    })
    expect(
      await summarizeWithFallback(failing(new SummarizerError('ECONNRESET', 'network')), req)
    ).toEqual({ status: 'retry_later', error: 'ECONNRESET' })
  })

  it('falls back to the extractive summary on anything else', async () => {
    const outcome = await summarizeWithFallback(failing(new Error('model refused')), req)
    expect(outcome).toMatchObject({ status: 'updated', source: 'fallback', error: 'model refused' })
    if (outcome.status === 'updated') expect(outcome.text).toContain(EXTRACTIVE_MARKER.en)
    const empty: Summarizer = { source: 'model', summarize: async () => '  ' }
    expect(await summarizeWithFallback(empty, req)).toMatchObject({
      source: 'fallback',
      error: 'empty summary'
    })
    expect(await new FallbackSummarizer().summarize(req)).toContain(EXTRACTIVE_MARKER.en)
  })
})

describe('when a thread summary is due', () => {
  it('takes the messages between the summary and the window, without excluded ones', () => {
    const messages = [
      ...chat(10),
      message(11, 'user', 'secret', { excluded: true }),
      ...chat(9, 12)
    ]
    const plan = planSummaryUpdate({
      messages,
      summary: { content: 'old', lastMessageSeq: 4 },
      windowStartSeq: 15,
      minTokens: 20
    })
    expect(plan.due).toBe(true)
    expect(plan.messages.map((m) => m.seq)).toEqual([5, 6, 7, 8, 9, 10, 12, 13, 14])
    expect(plan.lastMessageSeq).toBe(14)
    expect(
      planSummaryUpdate({ messages, summary: null, windowStartSeq: 15, minTokens: 10_000 }).due
    ).toBe(false)
  })

  it('never ends inside a tool-call group', () => {
    const messages = [...chat(4), ...toolGroup(5, ['a', 'b']), ...chat(3, 8)]
    const plan = planSummaryUpdate({ messages, summary: null, windowStartSeq: 7, minTokens: 1 })
    expect(plan.lastMessageSeq).toBe(4)
  })

  it('reads the window start from a build', () => {
    const built = buildContext(request({ messages: chat(300) }), config({ totalBudget: 1_000 }))
    const start = windowStartSeq(built)!
    expect(start).toBeGreaterThan(1)
    expect(built.trace.find((t) => t.seq === start)?.decision).toBe('included')
    expect(built.trace.find((t) => t.seq === start - 1)?.decision).toBe('dropped_budget')
  })
})

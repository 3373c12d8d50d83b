import { describe, expect, it } from 'vitest'
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import {
  countMessageTokens,
  MESSAGE_FRAMING_TOKENS,
  TokenMeter,
  TOOL_CALL_FRAMING_TOKENS
} from '../../../src/main/context/tokens/messageTokens'
import { describeModel } from '../../../src/main/context/modelCatalog'
import {
  cl100kCounter,
  estimateCounter,
  memoizedCounter,
  o200kCounter,
  tokenCounterFor,
  type TokenCounter
} from '../../../src/main/context/tokens/tokenCounter'
import { estimateTokens } from '../../../src/main/context/tokens/tokenEstimate'
import { CHINESE, ENGLISH, MIXED, TOOL_OUTPUT } from './fixtures/textSamples'

const samples = { english: ENGLISH, chinese: CHINESE, mixed: MIXED, toolOutput: TOOL_OUTPUT }

describe('exact BPE counts', () => {
  it.each(Object.entries(samples))('o200k matches gpt-tokenizer on %s text', (_, text) => {
    expect(o200kCounter.count(text)).toBe(o200k.countTokens(text))
    expect(cl100kCounter.count(text)).toBe(cl100k.countTokens(text))
  })

  it('knows the two encodings differ on Chinese (o200k is cheaper)', () => {
    expect(o200kCounter.count('你好，世界')).toBe(3)
    expect(cl100kCounter.count('你好，世界')).toBe(6)
    expect(o200kCounter.count('hello world')).toBe(2)
    expect(o200kCounter.count('')).toBe(0)
  })

  it('counts special-token text a user typed as plain text instead of throwing', () => {
    expect(() => o200k.countTokens('a <|endoftext|> b')).toThrow()
    expect(o200kCounter.count('a <|endoftext|> b')).toBeGreaterThan(3)
    expect(cl100kCounter.count('<|im_start|>')).toBeGreaterThan(1)
  })

  it('truncates to a token limit without leaving half a character', () => {
    const cut = o200kCounter.truncate(CHINESE, 20)
    expect(o200kCounter.count(cut)).toBeLessThanOrEqual(20)
    expect(CHINESE.startsWith(cut)).toBe(true)
    expect(cut).not.toContain('\uFFFD')
    expect(o200kCounter.truncate('short', 20)).toBe('short')
  })
})

describe('choosing a counter by model', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['o3-mini', 'o200k_base'],
    ['o1', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo', 'cl100k_base'],
    ['gpt-3.5-turbo-0125', 'cl100k_base'],
    ['claude-sonnet-4', 'estimate'],
    ['qwen2.5:7b', 'estimate']
  ])('%s -> %s', (model, encoding) => {
    expect(tokenCounterFor(model).encoding).toBe(encoding)
  })

  it('uses the exact counts of the selected encoding', () => {
    expect(tokenCounterFor('gpt-4').count(CHINESE)).toBe(cl100k.countTokens(CHINESE))
    expect(tokenCounterFor('GPT-4o').count(CHINESE)).toBe(o200k.countTokens(CHINESE))
  })

  it('knows context windows, and marks unknown models', () => {
    expect(describeModel('gpt-4o').contextWindow).toBe(128_000)
    expect(describeModel('gpt-4').contextWindow).toBe(8_192)
    expect(describeModel('llama3').known).toBe(false)
  })
})

describe('the CJK-aware estimate', () => {
  // Held-out text, not the corpus the weights were fitted on (see tokenEstimate.ts).
  it.each(Object.entries(samples))('stays within 20 %% of o200k on %s text', (_, text) => {
    const exact = o200k.countTokens(text)
    expect(Math.abs(estimateTokens(text) - exact) / exact).toBeLessThan(0.2)
  })

  it('is within 10 % over all samples, where chars/4 misses Chinese by more than half', () => {
    const all = Object.values(samples).join('\n')
    const exact = o200k.countTokens(all)
    expect(Math.abs(estimateTokens(all) - exact) / exact).toBeLessThan(0.1)
    const charsOver4 = CHINESE.length / 4
    expect(charsOver4 / o200k.countTokens(CHINESE)).toBeLessThan(0.5)
  })

  it('truncates within its own estimate and keeps surrogate pairs whole', () => {
    const text = '😀'.repeat(50)
    const cut = estimateCounter.truncate(text, 10)
    expect(estimateTokens(cut)).toBeLessThanOrEqual(10)
    expect(cut.length % 2).toBe(0)
    expect(cut.length).toBeGreaterThan(0)
  })
})

describe('cutting a text to a number of tokens', () => {
  const text = `${CHINESE} 😀👩‍💻 ${MIXED} 🎉 ${'中文😀，'.repeat(40)}`
  const whole = (cut: string) =>
    !cut.includes('\uFFFD') &&
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut)

  it('keeps within the limit, never splits a character, and does not depend on the cut before', () => {
    const index = o200kCounter.indexSteps(text, null)
    let next = index.next()
    while (!next.done) next = index.next()
    for (let tokens = 1; tokens <= 400; tokens += 7) {
      const head = o200kCounter.truncate(text, tokens)
      expect(o200k.countTokens(head)).toBeLessThanOrEqual(tokens)
      expect(text.startsWith(head)).toBe(true)
      expect(whole(head)).toBe(true)
      const tail = o200kCounter.tailOf(next.value, tokens)
      expect(o200k.countTokens(tail.text)).toBe(tail.tokens)
      expect(tail.tokens).toBeLessThanOrEqual(tokens)
      expect(text.endsWith(tail.text)).toBe(true)
      expect(whole(tail.text)).toBe(true)
      // gpt-tokenizer's decoder is shared and streaming: a cut that ended inside a character
      // once changed the next cut's text.
      expect(o200kCounter.truncate(text, tokens)).toBe(head)
    }
  })
})

describe('message tokens', () => {
  it('caches text plus tool-call names and arguments, framing added at build time', () => {
    const toolCalls = [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' }]
    const counted = countMessageTokens(o200kCounter, { content: 'ok', toolCalls })
    expect(counted).toBe(
      o200k.countTokens('ok') +
        o200k.countTokens('read_file') +
        o200k.countTokens('{"path":"a.ts"}') +
        TOOL_CALL_FRAMING_TOKENS
    )
    const meter = new TokenMeter(o200kCounter, 1)
    expect(meter.stored(counted)).toBe(counted + MESSAGE_FRAMING_TOKENS)
  })

  it('scales every count by the correction factor', () => {
    const meter = new TokenMeter(o200kCounter, 1.5)
    expect(meter.stored(10)).toBe(15 + MESSAGE_FRAMING_TOKENS)
    expect(meter.message('hello world')).toBe(3 + MESSAGE_FRAMING_TOKENS)
    const cut = meter.truncateMessage(ENGLISH, 33)
    expect(meter.message(cut)).toBeLessThanOrEqual(33)
  })

  it('remembers long texts instead of re-running BPE on every build', () => {
    let calls = 0
    const spy: TokenCounter = {
      ...o200kCounter,
      countSteps: (text) => (calls++, o200kCounter.countSteps(text))
    }
    const memo = memoizedCounter(spy)
    expect(memo.count(ENGLISH)).toBe(o200k.countTokens(ENGLISH))
    expect(memo.count(ENGLISH)).toBe(o200k.countTokens(ENGLISH))
    expect(calls).toBe(1)
  })

  it("remembers a long text's index too: an attached file's text is counted on every keystroke", () => {
    let indexed = 0
    const spy: TokenCounter = {
      ...o200kCounter,
      indexSteps: (text, from) => (indexed++, o200kCounter.indexSteps(text, from))
    }
    const memo = memoizedCounter(spy)
    const file = ENGLISH.repeat(Math.ceil(250_000 / ENGLISH.length))
    expect(memo.count(file)).toBe(o200kCounter.count(file))
    expect(memo.count(file)).toBe(o200kCounter.count(file))
    expect(indexed).toBe(1)
  })
})

import { describe, expect, it } from 'vitest'
import type { ContextConfig } from '@shared/contextConfig'
import { buildContext } from '../../../src/main/context/contextBuilder'
import { BuilderEngine } from '../../../src/main/context/engine/builderEngine'
import { BaseContextEngine } from '../../../src/main/context/engine/contextEngine'
import { EngineRegistry } from '../../../src/main/context/engine/engineRegistry'
import { recallMemories, type MemorySearch } from '../../../src/main/context/recall/memorySearch'
import type { BuildRequest, BuiltContext, ProviderMessage } from '@shared/context'
import { chat, config, request } from './threadBuilder'

/** A stand-in for a later engine: keeps only the last two messages. */
class LastTwoEngine extends BaseContextEngine {
  readonly name = 'last-two'
  build(req: BuildRequest, cfg: ContextConfig): BuiltContext {
    return buildContext({ ...req, messages: req.messages.slice(-2) }, cfg, this.name)
  }
  compress(messages: readonly ProviderMessage[]): ProviderMessage[] {
    this.compressionCount++
    return messages.slice(-2)
  }
}

describe('the engine registry', () => {
  it('always has the builder and selects engines by name', () => {
    const registry = new EngineRegistry([new LastTwoEngine()])
    expect(registry.names()).toEqual(['builder', 'last-two'])
    const built = registry.build(request({ messages: chat(10) }), config({ engine: 'last-two' }))
    expect(built.metadata.engine).toBe('last-two')
    expect(built.metadata.includedMessageCount).toBe(2)
  })

  it('falls back to the builder for an unknown name and says so in the build', () => {
    const registry = new EngineRegistry()
    const built = registry.build(request({ messages: chat(10) }), config({ engine: 'lcm' }))
    expect(built.metadata.engine).toBe('builder')
    expect(built.metadata.warnings).toEqual([
      {
        code: 'engine_fallback',
        message: 'No context engine named "lcm" (have: builder); using "builder".'
      }
    ])
    expect(built.metadata.includedMessageCount).toBe(10)
  })

  it('refuses a second engine with a taken name', () => {
    expect(() => new EngineRegistry([new BuilderEngine()])).toThrow(/already registered/)
  })
})

describe('engine defaults (Hermes contract)', () => {
  it('tracks usage, compresses past 75 % of the window and resets per session', () => {
    const engine = new LastTwoEngine()
    engine.updateModel('gpt-4o', 128_000)
    expect(engine.thresholdTokens).toBe(96_000)
    engine.updateFromResponse({ promptTokens: 100_000, completionTokens: 500 })
    expect(engine.lastTotalTokens).toBe(100_500)
    expect(engine.shouldCompress()).toBe(true)
    expect(engine.shouldCompress(1_000)).toBe(false)
    expect(engine.shouldCompressPreflight([])).toBe(false)
    expect(engine.getToolSchemas()).toEqual([])
    expect(JSON.parse(engine.handleToolCall('lcm_grep', {}))).toEqual({
      error: 'Unknown context engine tool: lcm_grep'
    })
    engine.compress([{ role: 'user', content: 'a' }])
    expect(engine.getStatus()).toMatchObject({ compressionCount: 1, usagePercent: 100_000 / 1280 })
    engine.onSessionReset()
    expect(engine.getStatus()).toMatchObject({
      lastPromptTokens: 0,
      compressionCount: 0,
      contextLength: 128_000
    })
  })

  it('the builder never needs compressing and reports how its count compares with usage', () => {
    const engine = new BuilderEngine()
    const built = engine.build(request({ messages: chat(5) }), config())
    engine.updateFromResponse({ promptTokens: built.tokenStats.total * 1.1, completionTokens: 10 })
    expect(engine.shouldCompress(10_000_000)).toBe(false)
    expect(engine.compress([{ role: 'user', content: 'x' }])).toEqual([
      { role: 'user', content: 'x' }
    ])
    expect(engine.getStatus()).toMatchObject({
      name: 'builder',
      contextLength: 128_000,
      thresholdTokens: built.tokenStats.budget,
      lastBuildTokens: built.tokenStats.total
    })
    expect(engine.getStatus().countRatio).toBeCloseTo(1.1)
  })
})

describe('memory recall', () => {
  const memory = { id: 'm', content: 'Likes tea', score: 0.9 }

  it('returns what the search found', async () => {
    const search: MemorySearch = { search: async () => [memory] }
    expect(await recallMemories(search, 'tea', { limit: 3, timeoutMs: 100 })).toEqual({
      memories: [memory],
      warnings: []
    })
  })

  it('degrades to no memories and a warning when the search is slow or fails', async () => {
    const slow: MemorySearch = {
      search: () => new Promise((resolve) => setTimeout(() => resolve([memory]), 500))
    }
    const failing: MemorySearch = { search: async () => Promise.reject(new Error('index locked')) }
    const timedOut = await recallMemories(slow, 'tea', { limit: 3, timeoutMs: 20 })
    expect(timedOut.memories).toEqual([])
    expect(timedOut.warnings[0]?.message).toMatch(/over 20 ms/)
    const failed = await recallMemories(failing, 'tea', { limit: 3, timeoutMs: 100 })
    expect(failed.warnings[0]?.message).toMatch(/index locked/)
    const built = buildContext(request({ warnings: failed.warnings }), config())
    expect(built.metadata.warnings).toEqual(failed.warnings)
  })
})

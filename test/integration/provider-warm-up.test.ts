/**
 * The providers' warm-up at start-up (providerWarmUp.ts): each kind's request code runs once
 * against a transport that refuses at once, so the first send does not pay for compiling it,
 * and no request leaves the machine.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROVIDER_KINDS } from '@shared/providers'
import { warmUpProviderKind } from '../../src/main/services/providers/providerWarmUp'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

afterEach(() => {
  vi.restoreAllMocks()
})

describe("the providers' warm-up", () => {
  it.each(PROVIDER_KINDS)(
    'runs the %s request code to the refusal, without the network',
    async (kind) => {
      const network = vi.spyOn(globalThis, 'fetch')
      const refusal = await warmUpProviderKind(kind)
      // The transport's 400, classified as every provider error is: the request was made.
      expect(refusal?.kind).toBe('invalid_request')
      expect(network).not.toHaveBeenCalled()
    }
  )

  it('warms each kind the user configured, once, and reports nothing', async () => {
    const network = vi.spyOn(globalThis, 'fetch')
    const { services } = servicesIn(tempDir())
    for (const name of ['Local', 'Other local']) {
      services.providers.create({
        kind: 'openai-compatible',
        name,
        baseUrl: 'http://127.0.0.1:9/v1',
        models: [{ id: 'model' }]
      })
    }
    services.providers.create({
      kind: 'anthropic',
      name: 'Anthropic',
      models: [{ id: 'claude-sonnet-4-5' }]
    })
    const logged: string[] = []
    const warmed = await services.providers.warmUp((message) => logged.push(message))
    expect(warmed.sort()).toEqual(['anthropic', 'openai-compatible'])
    expect(logged).toEqual([])
    expect(network).not.toHaveBeenCalled()
  })
})

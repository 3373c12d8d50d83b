/**
 * What the settings UI may send about a provider. Depends on zod only, so the IPC contract in
 * src/shared can take these schemas over as they are. The API key travels renderer -> main
 * once, in `apiKey`; nothing ever sends it back.
 */
import { z } from 'zod'
import { PROVIDER_KINDS } from './types'

const Price = z
  .number()
  .nonnegative({ message: 'A price cannot be negative' })
  .max(10_000, { message: 'A price above $10,000 per million tokens is a typo' })

/** A model as the user configures it; omitted numbers come from the built-in table. */
export const ModelInputSchema = z
  .strictObject({
    id: z
      .string()
      .trim()
      .min(1, { message: 'Model id is empty' })
      .max(200, { message: 'Model id is longer than 200 characters' }),
    contextWindow: z.number().int().min(512).max(20_000_000).optional(),
    maxOutput: z.number().int().min(1).max(2_000_000).optional(),
    inputPrice: Price.optional(),
    outputPrice: Price.optional(),
    cacheReadPrice: Price.optional(),
    cacheWritePrice: Price.optional()
  })
  .refine(
    (m) =>
      m.maxOutput === undefined || m.contextWindow === undefined || m.maxOutput < m.contextWindow,
    {
      message: 'Max output must be smaller than the context window',
      path: ['maxOutput']
    }
  )
export type ModelInput = z.infer<typeof ModelInputSchema>

const BaseUrl = z
  .url({ protocol: /^https?$/, message: 'Base URL must be an http(s) URL' })
  .max(2_000)
  .transform((url) => url.replace(/\/+$/, ''))

const ApiKey = z
  .string()
  .trim()
  .min(1, { message: 'API key is empty' })
  .max(1_000, { message: 'API key is longer than 1,000 characters' })
  .refine((key) => !/\s/.test(key), { message: 'API key contains whitespace' })

const Name = z
  .string()
  .trim()
  .min(1, { message: 'Name is empty' })
  .max(100, { message: 'Name is longer than 100 characters' })

const Models = z
  .array(ModelInputSchema)
  .max(500)
  .refine((models) => new Set(models.map((m) => m.id)).size === models.length, {
    message: 'The same model is listed twice'
  })

const needsBaseUrl = (input: { kind?: string; baseUrl?: string }) =>
  input.kind !== 'openai-compatible' || input.baseUrl !== undefined

/** providers.create */
export const ProviderInputSchema = z
  .strictObject({
    kind: z.enum(PROVIDER_KINDS),
    name: Name,
    baseUrl: BaseUrl.optional(),
    apiKey: ApiKey.optional(),
    models: Models.default([])
  })
  .refine(needsBaseUrl, {
    message: 'An OpenAI-compatible provider needs a base URL',
    path: ['baseUrl']
  })
export type ProviderInput = z.infer<typeof ProviderInputSchema>

/**
 * providers.update: every field optional. `apiKey: null` removes the stored key, an absent
 * `apiKey` keeps it; `baseUrl: null` returns to the provider's default endpoint.
 */
export const ProviderPatchSchema = z.strictObject({
  name: Name.optional(),
  baseUrl: BaseUrl.nullable().optional(),
  apiKey: ApiKey.nullable().optional(),
  models: Models.optional()
})
export type ProviderPatch = z.infer<typeof ProviderPatchSchema>

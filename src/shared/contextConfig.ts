/**
 * The context configuration: one global value, optionally overridden per thread. The schemas
 * are exported so the IPC contract validates settings with exactly the builder's rules.
 */
import { z } from 'zod'

export const BUDGETED_SECTIONS = [
  'system',
  'summary',
  'retrieved',
  'recent',
  'input',
  'attachments',
  'tools'
] as const
export type BudgetedSection = (typeof BUDGETED_SECTIONS)[number]
export type SectionPercentages = Record<BudgetedSection, number>

/**
 * Shares only matter when sections compete: what one leaves unused flows on (budget.ts), so a
 * chat without files or tools builds as it did when recent had 55 %. Why these numbers:
 * docs/CONTEXT.md, "The budget".
 */
export const DEFAULT_PERCENTAGES: SectionPercentages = {
  system: 15,
  summary: 10,
  retrieved: 15,
  recent: 40,
  input: 5,
  attachments: 10,
  tools: 5
}

const Percentage = z
  .number({ error: 'must be a number' })
  .min(0, { message: 'must be between 0 and 100' })
  .max(100, { message: 'must be between 0 and 100' })

const PercentagesShape = z.strictObject({
  system: Percentage,
  summary: Percentage,
  retrieved: Percentage,
  recent: Percentage,
  input: Percentage,
  attachments: Percentage,
  tools: Percentage
})

function sumOf(percentages: Partial<SectionPercentages>): number {
  return BUDGETED_SECTIONS.reduce((sum, section) => sum + (percentages[section] ?? 0), 0)
}

/** All seven shares; each 0-100 and together at most 100 (less leaves headroom unallocated). */
export const SectionPercentagesSchema = PercentagesShape.superRefine((value, ctx) => {
  const sum = sumOf(value)
  // A share out of range is already reported on its own field; a sum over it is noise.
  const inRange = BUDGETED_SECTIONS.every((s) => value[s] >= 0 && value[s] <= 100)
  if (inRange && sum > 100) {
    ctx.addIssue({ code: 'custom', message: `the sections add up to ${sum} %, at most 100 %` })
  }
})

/**
 * Where recall looks: this thread's older messages only; those and the long-term memories; or
 * also every other thread's messages (labelled with their thread). docs/MEMORY.md, "Scope".
 */
export const RECALL_SCOPES = ['thread', 'thread_memories', 'all'] as const
export type RecallScope = (typeof RECALL_SCOPES)[number]

const Relevance = z
  .number({ error: 'must be a number' })
  .min(0, { message: 'must be between 0 and 1' })
  .max(1, { message: 'must be between 0 and 1' })

const TokenCount = z
  .number({ error: 'must be a number' })
  .int({ message: 'must be a whole number' })

const fields = {
  /** Which registered ContextEngine builds the requests; unknown names fall back to "builder". */
  engine: z.string().trim().min(1, { message: 'must not be empty' }),
  model: z.string().trim().min(1, { message: 'must not be empty' }),
  /** A fixed total; when absent the total is the model's window minus the output reserve. */
  totalBudget: TokenCount.positive({ message: 'must be at least 1' }),
  /** Overrides the model catalog (local and unknown models). */
  contextWindow: TokenCount.positive({ message: 'must be at least 1' }),
  outputReserve: TokenCount.nonnegative({ message: 'must not be negative' }),
  /** The final "current goal" block. */
  pinning: z.boolean({ error: 'must be true or false' }),
  /** How the recent window moves once the thread outgrows it. */
  windowPolicy: z.enum(['chunked', 'sliding'], { error: 'must be "chunked" or "sliding"' }),
  recallScope: z.enum(RECALL_SCOPES, { error: 'must be "thread", "thread_memories" or "all"' }),
  /**
   * Opt-in: after everything relevant, fill spare budget with the nearest items under the gate
   * and the turns around every hit (the behaviour before issue #17). Off: budget no section has
   * relevant material for stays free.
   */
  recallFillSpare: z.boolean({ error: 'must be true or false' }),
  /** Replaces the embedding model's calibrated relevance gate (what-if, or a user's choice). */
  recallMinRelevance: Relevance,
  /** Provider-reported tokens divided by our count, per model id; 1 until calibrated. */
  tokenCorrections: z.record(
    z.string(),
    z.number().min(0.5, { message: 'must be 0.5-2' }).max(2, { message: 'must be 0.5-2' })
  )
}

const ContextConfigSchema = z.strictObject({
  engine: fields.engine,
  model: fields.model,
  totalBudget: fields.totalBudget.optional(),
  contextWindow: fields.contextWindow.optional(),
  outputReserve: fields.outputReserve.optional(),
  percentages: SectionPercentagesSchema,
  pinning: fields.pinning,
  window: z.strictObject({ policy: fields.windowPolicy }),
  recall: z.strictObject({
    scope: fields.recallScope,
    fillSpare: fields.recallFillSpare,
    minRelevance: fields.recallMinRelevance.optional()
  }),
  tokenCorrections: fields.tokenCorrections
})
export type ContextConfig = z.infer<typeof ContextConfigSchema>

/** What a settings change or a thread override may carry: any subset, percentages too. */
export const ContextConfigPatchSchema = z.strictObject({
  engine: fields.engine.optional(),
  model: fields.model.optional(),
  totalBudget: fields.totalBudget.nullable().optional(),
  contextWindow: fields.contextWindow.nullable().optional(),
  outputReserve: fields.outputReserve.nullable().optional(),
  /** `null` for a section drops this layer's share, so the layer below applies again. */
  percentages: z
    .strictObject({
      system: Percentage.nullable(),
      summary: Percentage.nullable(),
      retrieved: Percentage.nullable(),
      recent: Percentage.nullable(),
      input: Percentage.nullable(),
      attachments: Percentage.nullable(),
      tools: Percentage.nullable()
    })
    .partial()
    .optional(),
  pinning: fields.pinning.optional(),
  window: z.strictObject({ policy: fields.windowPolicy.optional() }).optional(),
  /** `minRelevance: null` goes back to the model's calibrated gate. */
  recall: z
    .strictObject({
      scope: fields.recallScope.optional(),
      fillSpare: fields.recallFillSpare.optional(),
      minRelevance: fields.recallMinRelevance.nullable().optional()
    })
    .optional(),
  tokenCorrections: fields.tokenCorrections.optional()
})
export type ContextConfigPatch = z.infer<typeof ContextConfigPatchSchema>

export const DEFAULT_CONTEXT_CONFIG: ContextConfig = {
  engine: 'builder',
  model: 'gpt-4o',
  percentages: DEFAULT_PERCENTAGES,
  pinning: true,
  window: { policy: 'chunked' },
  // Every thread, behind the relevance gate: a new thread finds what was said elsewhere, and
  // an off-topic question finds nothing (docs/MEMORY.md, "Scope", has the measurements).
  recall: { scope: 'all', fillSpare: false },
  tokenCorrections: {}
}

function withoutNulls<T extends object>(
  values: T | undefined
): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== null)) as {
    [K in keyof T]?: Exclude<T[K], null>
  }
}

/** The shares after a patch's: a `null` share means "no override here" and keeps the base's. */
export function applyPercentages(
  base: SectionPercentages,
  patch: ContextConfigPatch['percentages']
): SectionPercentages {
  return { ...base, ...withoutNulls(patch) }
}

function applyRecall(
  base: ContextConfig['recall'],
  patch: NonNullable<ContextConfigPatch['recall']>
): ContextConfig['recall'] {
  const next = { ...base, ...withoutNulls(patch) }
  if (patch.minRelevance === null) delete next.minRelevance
  return next
}

/** `null` in a patch clears an optional number (back to the model's default). */
function applyPatch(base: ContextConfig, patch: ContextConfigPatch): ContextConfig {
  const next: ContextConfig = {
    ...base,
    percentages: applyPercentages(base.percentages, patch.percentages),
    tokenCorrections: { ...base.tokenCorrections, ...patch.tokenCorrections }
  }
  if (patch.engine !== undefined) next.engine = patch.engine
  if (patch.model !== undefined) next.model = patch.model
  if (patch.pinning !== undefined) next.pinning = patch.pinning
  if (patch.window?.policy !== undefined) next.window = { policy: patch.window.policy }
  if (patch.recall) next.recall = applyRecall(base.recall, patch.recall)
  for (const key of ['totalBudget', 'contextWindow', 'outputReserve'] as const) {
    const value = patch[key]
    if (value === null) delete next[key]
    else if (value !== undefined) next[key] = value
  }
  return next
}

export type ConfigResult = { ok: true; config: ContextConfig } | { ok: false; issues: string[] }

/**
 * Defaults, then the global patch, then the thread's. The merged result is validated as a
 * whole, because a thread raising one share can push the sum over 100 on its own.
 */
export function resolveContextConfig(...patches: ContextConfigPatch[]): ConfigResult {
  const merged = patches.reduce(applyPatch, DEFAULT_CONTEXT_CONFIG)
  const parsed = ContextConfigSchema.safeParse(merged)
  return parsed.success
    ? { ok: true, config: parsed.data }
    : { ok: false, issues: formatIssues(parsed.error) }
}

/** "percentages.recent: must be between 0 and 100"; the root is named by `rootName`. */
export function formatIssues(error: z.ZodError, rootName = 'config'): string[] {
  return error.issues.map((issue) => {
    const path = issue.path
      .map((part, i) =>
        typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`
      )
      .join('')
    return `${path || rootName}: ${issue.message}`
  })
}

/**
 * Folds a change into a stored patch. `null` removes the stored value, so a thread inherits
 * the global setting again and the global setting falls back to the model's default.
 */
export function mergeConfigPatches(
  base: ContextConfigPatch,
  change: ContextConfigPatch
): ContextConfigPatch {
  const merged: Record<string, unknown> = {
    ...base,
    ...change,
    percentages: withoutNulls({ ...base.percentages, ...change.percentages }),
    window: { ...base.window, ...change.window },
    recall: withoutNulls({ ...base.recall, ...change.recall }),
    tokenCorrections: { ...base.tokenCorrections, ...change.tokenCorrections }
  }
  for (const [key, value] of Object.entries(merged)) {
    const empty = typeof value === 'object' && value !== null && Object.keys(value).length === 0
    if (value === null || value === undefined || empty) delete merged[key]
  }
  return merged as ContextConfigPatch
}

/** What the inspector's settings show: both stored layers and what they resolve to. */
export interface ContextConfigView {
  global: ContextConfigPatch
  thread: ContextConfigPatch | null
  effective: ContextConfig
}

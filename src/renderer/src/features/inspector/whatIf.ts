/**
 * The unsaved budget settings the user is trying out. A what-if is a `ContextConfigPatch`
 * holding only the fields that differ from the effective configuration, so "dirty" means
 * "not empty" and typing a value back to what it was makes the form clean again.
 */
import {
  applyPercentages,
  BUDGETED_SECTIONS,
  type BudgetedSection,
  type ContextConfig,
  type ContextConfigPatch,
  type RecallScope
} from '@shared/contextConfig'
import type { WindowPolicy } from '@shared/context'

/** The fields the inspector edits. */
export type WhatIfChange = Pick<
  ContextConfigPatch,
  'percentages' | 'totalBudget' | 'pinning' | 'window' | 'recall'
>

export const isEmptyPatch = (patch: ContextConfigPatch): boolean => Object.keys(patch).length === 0

/** Folds `change` into `whatIf`, dropping every field that equals the effective configuration. */
export function applyWhatIf(
  whatIf: ContextConfigPatch,
  change: WhatIfChange,
  effective: ContextConfig | null
): ContextConfigPatch {
  const next: ContextConfigPatch = { ...whatIf }
  if (change.percentages) {
    const percentages = { ...whatIf.percentages, ...change.percentages }
    for (const section of BUDGETED_SECTIONS) {
      if (effective && percentages[section] === effective.percentages[section]) {
        delete percentages[section]
      }
    }
    if (Object.keys(percentages).length > 0) next.percentages = percentages
    else delete next.percentages
  }
  if (change.totalBudget !== undefined) {
    // null asks for the automatic total, which is what an unset effective total already is.
    const same = effective && (change.totalBudget ?? undefined) === effective.totalBudget
    if (same) delete next.totalBudget
    else next.totalBudget = change.totalBudget
  }
  if (change.pinning !== undefined) {
    if (effective && change.pinning === effective.pinning) delete next.pinning
    else next.pinning = change.pinning
  }
  if (change.window?.policy !== undefined) {
    if (effective && change.window.policy === effective.window.policy) delete next.window
    else next.window = { policy: change.window.policy }
  }
  if (change.recall) {
    const recall = { ...whatIf.recall, ...change.recall }
    for (const key of ['scope', 'fillSpare', 'minRelevance'] as const) {
      const effectiveValue = effective?.recall[key] ?? (key === 'minRelevance' ? null : undefined)
      if (effective && recall[key] === effectiveValue) delete recall[key]
    }
    if (Object.keys(recall).length > 0) next.recall = recall
    else delete next.recall
  }
  return next
}

/** What the form shows: the effective configuration with the what-if on top. */
export interface BudgetForm {
  percentages: Record<BudgetedSection, number>
  /** null: the model's window minus the reply reserve, at most 85 % of the window. */
  totalBudget: number | null
  pinning: boolean
  windowPolicy: WindowPolicy
  recallScope: RecallScope
  fillSpare: boolean
}

export function budgetForm(effective: ContextConfig, whatIf: ContextConfigPatch): BudgetForm {
  const total = whatIf.totalBudget === undefined ? effective.totalBudget : whatIf.totalBudget
  return {
    percentages: applyPercentages(effective.percentages, whatIf.percentages),
    totalBudget: total ?? null,
    pinning: whatIf.pinning ?? effective.pinning,
    windowPolicy: whatIf.window?.policy ?? effective.window.policy,
    recallScope: whatIf.recall?.scope ?? effective.recall.scope,
    fillSpare: whatIf.recall?.fillSpare ?? effective.recall.fillSpare
  }
}

export const percentageSum = (percentages: Record<BudgetedSection, number>): number =>
  BUDGETED_SECTIONS.reduce((sum, section) => sum + percentages[section], 0)

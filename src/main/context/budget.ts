import {
  BUDGETED_SECTIONS,
  type ContextConfig,
  type SectionPercentages
} from '@shared/contextConfig'
import { defaultTotalBudget, SECTIONS, type SectionName, type SectionStats } from '@shared/context'
import { contextWindowOf, defaultOutputReserve } from './modelCatalog'

/** Sections whose size adapts to the budget; the others (system, input, pinning) are mandatory. */
export type FlexibleSection = 'tools' | 'attachments' | 'recent' | 'retrieved' | 'summary'

/**
 * Budget a section leaves unused is offered to the flexible sections in this order: a section
 * earlier in the list has first claim on the pool, up to what it asked for (`hold`'s demand),
 * whichever section the builder happens to place first. Every section has already kept its own
 * share, so the pool is only what others left unused.
 *
 * Tools first: the thread's chosen schemas, few and the same every turn, and a model that
 * cannot see a tool cannot use it; their demand is bounded by what the user enabled.
 * Attachments next: the user attached those files for this conversation, and a file that fits
 * goes whole; a file larger than the pool is chunked to what is left, and the recent window
 * still keeps its own share.
 *
 * Retrieved then: its candidates were chosen for this input, ranked, and are few (the recall
 * limit follows the budget, below), so what it can take from the pool is bounded; on LoCoMo
 * the evidence a question needs sits in the recalled turns far more often than in the turns
 * just before the oldest one the window's share already holds (docs/EVALUATION.md). Recent
 * next: it keeps its whole share in any case (the newest turns are what the next reply depends
 * on most), and takes everything else, extending the verbatim history without gaps. Summary
 * last: its writer targets its share, and one over it is better fixed by summarising harder.
 */
export const REDISTRIBUTION_ORDER: readonly FlexibleSection[] = [
  'tools',
  'attachments',
  'retrieved',
  'recent',
  'summary'
]

/**
 * Mandatory items (input, system prompt, pinned messages, the pinning block) reclaim from
 * flexible sections in this order: the summary first (it can be rewritten shorter), then
 * recalled items, then file chunks and tool schemas (both chosen by relevance, so what goes is
 * the least relevant), the recent window last.
 */
const RECLAIM_ORDER: readonly FlexibleSection[] = [
  'summary',
  'retrieved',
  'attachments',
  'tools',
  'recent'
]

function perSection(value: number): Record<SectionName, number> {
  return Object.fromEntries(SECTIONS.map((s) => [s, value])) as Record<SectionName, number>
}

/** floor(total × percentage / 100) for each section; pinning has no share of its own. */
export function sectionShares(
  total: number,
  percentages: SectionPercentages
): Record<SectionName, number> {
  const shares = perSection(0)
  for (const section of BUDGETED_SECTIONS) {
    shares[section] = Math.floor((total * percentages[section]) / 100)
  }
  return shares
}

/**
 * Moves tokens between sections. Each section first holds what it needs of its own share and
 * gives the rest to a common pool; mandatory items (input, system prompt, pinned messages,
 * the pinning block) top up from the pool and, if that is not enough, reclaim from flexible
 * sections; flexible sections then receive the pool in REDISTRIBUTION_ORDER (a section placed
 * before one ahead of it in that order gets the pool less what that one still needs).
 */
export class BudgetAllocator {
  readonly shares: Record<SectionName, number>
  private pool: number
  /** The assigned percentage of the total; the rest is headroom. */
  private readonly allocatable: number
  private readonly held = perSection(0)
  private readonly revoked = perSection(0)
  /** What each section asked for in `hold` (lowered by `release`). */
  private readonly demand = perSection(0)
  /** Flexible sections that have been offered the pool. */
  private readonly offered = new Set<SectionName>()
  /** Tokens inside a flexible section that must not be reclaimed (pinned messages). */
  private readonly protectedTokens = perSection(0)

  constructor(
    readonly total: number,
    percentages: SectionPercentages
  ) {
    this.shares = sectionShares(total, percentages)
    const assigned = BUDGETED_SECTIONS.reduce((sum, s) => sum + percentages[s], 0)
    // Rounding crumbs of the assigned percentage join the pool; an unassigned percentage
    // (sum below 100) is headroom the user chose to keep free, never handed out.
    this.allocatable = Math.floor((total * assigned) / 100)
    this.pool = this.allocatable - SECTIONS.reduce((sum, s) => sum + this.shares[s], 0)
  }

  /** Budget that nobody holds: unused after the build, or headroom. */
  get unallocated(): number {
    return this.pool
  }

  holding(section: SectionName): number {
    return this.held[section]
  }

  /** Keeps min(demand, share) for the section; the rest of its share joins the pool. */
  hold(section: SectionName, demand: number): number {
    const kept = Math.min(Math.max(0, demand), this.shares[section])
    this.demand[section] = Math.max(0, demand)
    this.held[section] = kept
    this.pool += this.shares[section] - kept
    return kept
  }

  /**
   * What `section` would end up with if each of the `perTurn` sections used exactly its share
   * (or what it already holds beyond it) and every other section what it holds now. The
   * chunked window cuts by this, so that a shorter input or fewer memories this turn do not
   * move where the history starts (windowCut.ts).
   */
  steadyBudget(section: SectionName, perTurn: readonly SectionName[]): number {
    let budget = this.allocatable
    for (const other of SECTIONS) {
      if (other === section) continue
      budget -= perTurn.includes(other)
        ? Math.max(this.shares[other], this.held[other])
        : this.held[other]
    }
    return Math.max(0, budget)
  }

  /** Marks tokens a flexible section holds for mandatory items, out of reach of reclaiming. */
  protect(section: FlexibleSection, tokens: number): void {
    this.protectedTokens[section] = tokens
  }

  private reclaimable(section: FlexibleSection): number {
    return Math.max(0, this.held[section] - this.protectedTokens[section])
  }

  /** What `obtain` could deliver to `section` right now. */
  available(section: SectionName): number {
    return (
      this.pool +
      RECLAIM_ORDER.filter((s) => s !== section).reduce((sum, s) => sum + this.reclaimable(s), 0)
    )
  }

  /**
   * Gets up to `need` more tokens for a mandatory item: from the pool first, then by reclaiming
   * from flexible sections, summary first. Returns what it got, which may be less.
   */
  obtain(section: SectionName, need: number): number {
    let got = Math.min(need, this.pool)
    this.pool -= got
    for (const donor of RECLAIM_ORDER) {
      if (got >= need) break
      if (donor === section) continue
      const taken = Math.min(need - got, this.reclaimable(donor))
      this.held[donor] -= taken
      this.revoked[donor] += taken
      got += taken
    }
    this.held[section] += got
    return got
  }

  /**
   * Makes `section` hold `tokens` for a mandatory item, obtaining what it lacks. False when
   * even reclaiming every flexible section leaves it short.
   */
  claim(section: SectionName, tokens: number): boolean {
    const short = tokens - this.held[section]
    return short <= 0 || this.obtain(section, short) >= short
  }

  /**
   * Hands the pool to a flexible section, less what sections ahead of it in
   * REDISTRIBUTION_ORDER, not offered the pool yet, still need (except those it `overtaking`:
   * a chunked window, whose claim its cut bounds); returns what it now holds.
   */
  offerPool(section: FlexibleSection, overtaking: readonly FlexibleSection[] = []): number {
    const given = Math.max(0, this.pool - this.reservedAhead(section, overtaking))
    this.held[section] += given
    this.pool -= given
    this.offered.add(section)
    return this.held[section]
  }

  /** Tokens the sections before `section` in REDISTRIBUTION_ORDER still wait for. */
  private reservedAhead(section: FlexibleSection, overtaking: readonly FlexibleSection[]): number {
    let reserved = 0
    for (const ahead of REDISTRIBUTION_ORDER) {
      if (ahead === section) break
      if (this.offered.has(ahead) || overtaking.includes(ahead)) continue
      reserved += Math.max(0, this.demand[ahead] - this.held[ahead])
    }
    return reserved
  }

  /** Gives back what a section holds beyond `used`; it needs no more than `used` from now on. */
  release(section: SectionName, used: number): void {
    const unused = Math.max(0, this.held[section] - used)
    this.held[section] -= unused
    this.pool += unused
    this.demand[section] = Math.min(this.demand[section], Math.max(0, used))
  }

  /**
   * The section's budget as the inspector shows it: its share less what mandatory items
   * reclaimed, or what it ended up holding when it received budget from others.
   */
  budgetOf(section: SectionName): number {
    return Math.max(this.shares[section] - this.revoked[section], this.held[section])
  }
}

/** Per section: tokens used and items placed. Budgets come from the allocator. */
export class BudgetTracker {
  private readonly used = perSection(0)
  private readonly items = perSection(0)

  record(section: SectionName, tokens: number, items = 1): void {
    this.used[section] += tokens
    this.items[section] += items
  }

  usedBy(section: SectionName): number {
    return this.used[section]
  }

  get total(): number {
    return SECTIONS.reduce((sum, s) => sum + this.used[s], 0)
  }

  stats(allocator: BudgetAllocator): Record<SectionName, SectionStats> {
    const stats = {} as Record<SectionName, SectionStats>
    for (const section of SECTIONS) {
      stats[section] = {
        share: allocator.shares[section],
        budget: allocator.budgetOf(section),
        used: this.used[section],
        items: this.items[section]
      }
    }
    return stats
  }
}

/** The build's total budget as ContextBuild computes it: fixed, or `defaultTotalBudget`. */
export function totalBudgetOf(config: ContextConfig): number {
  if (config.totalBudget !== undefined) return config.totalBudget
  const window = contextWindowOf(config)
  return defaultTotalBudget(window, config.outputReserve ?? defaultOutputReserve(window))
}

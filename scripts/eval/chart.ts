/**
 * `npm run eval -- chart`: evidence recall against the tokens actually sent, as an SVG chart,
 * from the JSON summaries `--json-out` writes (docs/recall-vs-tokens.svg). Cost is part of
 * quality: a point up and to the left is better, and a budget the builder fills to the last
 * token shows as a point far to the right. Each point is one budget, labelled ("2k",
 * "default"). Pure: summaries in, markup out. A series whose label starts with "before" is
 * drawn dashed in its dataset's colour, so each dataset's before and after read as a pair.
 */

interface ChartPoint {
  /** Mean prompt tokens sent per question. */
  tokens: number
  recall: number
  /** The budget it was built at. */
  label: string
}

export interface ChartSeries {
  label: string
  /** Ordered by tokens sent. */
  points: readonly ChartPoint[]
}

interface Summary {
  results?: {
    strategy: string
    budget: number | 'default'
    evidence_recall: number
    mean_context_tokens: number
  }[]
}

const budgetLabel = (budget: number | 'default'): string =>
  budget === 'default' ? 'default' : budget >= 1000 ? `${budget / 1000}k` : String(budget)

/** The `builder` rows of a summary as points: recall at the tokens each budget sent. */
export function seriesFrom(label: string, summary: unknown): ChartSeries {
  const rows = (summary as Summary).results
  if (!Array.isArray(rows)) throw new Error(`${label}: not an eval summary (no results)`)
  const points = rows
    .filter((r) => r.strategy === 'builder')
    .map((r) => ({
      tokens: Math.max(1, r.mean_context_tokens),
      recall: r.evidence_recall,
      label: budgetLabel(r.budget)
    }))
    .sort((a, b) => a.tokens - b.tokens)
  if (points.length === 0) throw new Error(`${label}: no builder rows`)
  return { label, points }
}

/**
 * One colour per dataset (its before and after lines share it). Ten distinct ones: the chart
 * shows four datasets for two models; with seven, the eighth line took the first one's colour.
 */
const COLOURS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#17becf',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22'
]
const WIDTH = 760
const HEIGHT = 440
const PLOT = { left: 60, right: 250, top: 30, bottom: 50 }

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Tokens sent on a log₁₀ axis (decades from the smallest to the largest), recall 0 to 1. */
export function recallChart(series: readonly ChartSeries[], title: string): string {
  const tokens = series.flatMap((s) => s.points.map((p) => p.tokens))
  if (tokens.length === 0) throw new Error('Nothing to draw.')
  const lo = Math.floor(Math.log10(Math.min(...tokens)))
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...tokens))))
  const plotW = WIDTH - PLOT.left - PLOT.right
  const plotH = HEIGHT - PLOT.top - PLOT.bottom
  const x = (value: number) => PLOT.left + ((Math.log10(value) - lo) / (hi - lo)) * plotW
  const y = (recall: number) => PLOT.top + (1 - recall) * plotH
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${PLOT.left}" y="18" font-size="14" font-weight="bold">${escape(title)}</text>`
  ]
  for (let tick = 0; tick <= 10; tick += 2) {
    const ty = y(tick / 10)
    out.push(
      `<line x1="${PLOT.left}" x2="${PLOT.left + plotW}" y1="${ty}" y2="${ty}" stroke="#e5e5e5"/>`,
      `<text x="${PLOT.left - 8}" y="${ty + 4}" text-anchor="end">${(tick / 10).toFixed(1)}</text>`
    )
  }
  for (let decade = lo; decade <= hi; decade++) {
    const tx = x(10 ** decade)
    out.push(
      `<line x1="${tx}" x2="${tx}" y1="${PLOT.top}" y2="${PLOT.top + plotH}" stroke="#f0f0f0"/>`,
      `<text x="${tx}" y="${PLOT.top + plotH + 18}" text-anchor="middle">${(10 ** decade).toLocaleString('en-US')}</text>`
    )
  }
  out.push(
    `<text x="${PLOT.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">mean prompt tokens sent per question (log scale)</text>`,
    `<text transform="translate(16 ${PLOT.top + plotH / 2}) rotate(-90)" text-anchor="middle">evidence recall</text>`,
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`
  )
  const datasets = [...new Set(series.map((s) => s.label.replace(/^before\W*/iu, '')))]
  if (datasets.length > COLOURS.length) {
    throw new Error(
      `${datasets.length} datasets, ${COLOURS.length} colours: draw them in two charts.`
    )
  }
  series.forEach((s, i) => {
    const before = /^before/iu.test(s.label)
    const colour = COLOURS[datasets.indexOf(s.label.replace(/^before\W*/iu, ''))] as string
    const path = s.points
      .map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.tokens)},${y(p.recall)}`)
      .join(' ')
    const dash = before ? ' stroke-dasharray="5 4"' : ''
    out.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`)
    for (const p of s.points) {
      out.push(
        `<circle cx="${x(p.tokens)}" cy="${y(p.recall)}" r="3" fill="${before ? 'white' : colour}" stroke="${colour}"/>`,
        `<text x="${x(p.tokens) + 5}" y="${y(p.recall) - 5}" font-size="10" fill="${colour}">${escape(p.label)}</text>`
      )
    }
    const ly = PLOT.top + 10 + i * 20
    const lx = PLOT.left + plotW + 16
    out.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`,
      `<text x="${lx + 30}" y="${ly + 4}">${escape(s.label)}</text>`
    )
  })
  out.push('</svg>')
  return `${out.join('\n')}\n`
}

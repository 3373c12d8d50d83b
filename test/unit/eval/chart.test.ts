import { describe, expect, it } from 'vitest'
import { recallChart, seriesFrom } from '../../../scripts/eval/chart'

/** Builder rows [budget, recall, tokens sent]; tokens default to the budget (a filled one). */
const summary = (rows: [number | 'default', number, number?][]) => ({
  results: [
    ...rows.map(([budget, evidence_recall, tokens]) => ({
      strategy: 'builder',
      budget,
      evidence_recall,
      mean_context_tokens: tokens ?? (budget === 'default' ? 100_000 : budget)
    })),
    { strategy: 'window', budget: 2000, evidence_recall: 0.1, mean_context_tokens: 2000 }
  ]
})

describe('the recall chart', () => {
  it('reads the builder rows of a summary as recall at the tokens sent, labelled by budget', () => {
    expect(
      seriesFrom(
        'x',
        summary([
          ['default', 0.9, 3500],
          [2000, 0.6, 1500]
        ])
      ).points
    ).toEqual([
      { tokens: 1500, recall: 0.6, label: '2k' },
      { tokens: 3500, recall: 0.9, label: 'default' }
    ])
    expect(() => seriesFrom('x', { results: [] })).toThrow('x: no builder rows')
    expect(() => seriesFrom('x', {})).toThrow('not an eval summary')
  })

  it('draws one line per series, before dashed in its dataset’s colour, cheaper further left', () => {
    const svg = recallChart(
      [
        seriesFrom(
          'before LoCoMo',
          summary([
            [2000, 0.4],
            [16000, 0.9]
          ])
        ),
        seriesFrom(
          'LoCoMo',
          summary([
            [2000, 0.6, 900],
            [16000, 0.95, 4000]
          ])
        )
      ],
      'Recall <by> tokens'
    )
    const paths = [
      ...svg.matchAll(
        /<path d="M([\d.]+),([\d.]+) L([\d.]+),([\d.]+)" fill="none" stroke="(#\w+)"[^>]*?( stroke-dasharray="5 4")?\/>/g
      )
    ]
    expect(paths).toHaveLength(2)
    const [before, after] = paths as RegExpMatchArray[]
    expect(before![6]).toBeDefined()
    expect(after![6]).toBeUndefined()
    expect(before![5]).toBe(after![5])
    // SVG y grows downwards: more recall, smaller y. Fewer tokens sent, further left.
    expect(Number(after![2])).toBeLessThan(Number(before![2]))
    expect(Number(after![1])).toBeLessThan(Number(before![1]))
    expect(Number(after![3])).toBeLessThan(Number(before![3]))
    expect(svg).toContain('Recall &lt;by&gt; tokens')
    expect(svg).toContain('10,000')
    expect(svg).toContain('>16k<')
  })

  it('gives every dataset its own colour: four datasets for two models, eight lines', () => {
    const names = ['LoCoMo single', 'LoCoMo per session', 'LongMemEval', 'dev set']
    const labels = names.flatMap((n) => [`${n} (bge)`, `${n} (e5)`])
    const series = labels.flatMap((label) => [
      seriesFrom(
        `before ${label}`,
        summary([
          [2000, 0.5],
          [4000, 0.6]
        ])
      ),
      seriesFrom(
        label,
        summary([
          [2000, 0.7],
          [4000, 0.8]
        ])
      )
    ])
    const svg = recallChart(series, 'all')
    const colours = [...svg.matchAll(/<path d="[^"]*" fill="none" stroke="(#\w+)"/g)].map(
      (m) => m[1]
    )
    expect(colours).toHaveLength(16)
    // Before and after of one dataset share a colour; no two datasets do.
    expect(new Set(colours).size).toBe(8)
    for (let i = 0; i < 16; i += 2) expect(colours[i]).toBe(colours[i + 1])
    const tooMany = Array.from({ length: 11 }, (_, i) =>
      seriesFrom(`d${i}`, summary([[2000, 0.5]]))
    )
    expect(() => recallChart(tooMany, 'x')).toThrow('11 datasets, 10 colours')
  })
})

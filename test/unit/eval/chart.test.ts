import { describe, expect, it } from 'vitest'
import { recallChart, seriesFrom } from '../../../scripts/eval/chart'

const summary = (rows: [number, number][]) => ({
  results: [
    ...rows.map(([budget, evidence_recall]) => ({ strategy: 'builder', budget, evidence_recall })),
    { strategy: 'window', budget: 2000, evidence_recall: 0.1 }
  ]
})

describe('the recall chart', () => {
  it('reads the builder rows of a summary, by budget', () => {
    expect(
      seriesFrom(
        'x',
        summary([
          [4000, 0.8],
          [2000, 0.6]
        ])
      ).points
    ).toEqual([
      [2000, 0.6],
      [4000, 0.8]
    ])
    expect(() => seriesFrom('x', { results: [] })).toThrow('x: no builder rows')
    expect(() => seriesFrom('x', {})).toThrow('not an eval summary')
  })

  it('draws one line per series, before dashed in its dataset’s colour, higher recall higher up', () => {
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
            [2000, 0.6],
            [16000, 0.95]
          ])
        )
      ],
      'Recall <by> budget'
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
    // SVG y grows downwards: more recall, smaller y; the larger budget is further right.
    expect(Number(after![2])).toBeLessThan(Number(before![2]))
    expect(Number(after![3])).toBeGreaterThan(Number(after![1]))
    expect(svg).toContain('Recall &lt;by&gt; budget')
    expect(svg).toContain('16,000')
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

/** Wall-time samples and their percentiles, shared by every benchmark. */

export interface Timing {
  p50: number
  p95: number
  runs: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

export function summarize(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), runs: sorted.length }
}

export function time(runs: number, fn: (run: number) => void): Timing {
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    fn(run)
    samples.push(performance.now() - start)
  }
  return summarize(samples)
}

export async function timeAsync(
  runs: number,
  fn: (run: number) => Promise<unknown>
): Promise<Timing> {
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    await fn(run)
    samples.push(performance.now() - start)
  }
  return summarize(samples)
}

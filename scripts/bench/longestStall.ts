/**
 * The longest time the event loop did not turn while `work` ran: the longest gap between the
 * ticks of a 1 ms timer started before it, and how many times it turned. (`monitorEventLoopDelay`
 * alone misses a block that begins before its first sample: a send whose draft was already
 * counted blocked 0.2 s at once and its histogram said 6 ms.) Shared by the bench and the tests.
 */
export async function longestStall<T>(
  work: () => Promise<T>
): Promise<{ value: T; max: number; turns: number }> {
  let last = performance.now()
  let max = 0
  let turns = 0
  let running = true
  const tick = () => {
    const now = performance.now()
    max = Math.max(max, now - last)
    last = now
    turns++
    if (running) setTimeout(tick, 1)
  }
  setTimeout(tick, 1)
  const value = await work()
  // Two more ticks, so a block at the very end of the work is seen.
  await new Promise((resolve) => setTimeout(resolve, 5))
  running = false
  return { value, max, turns }
}

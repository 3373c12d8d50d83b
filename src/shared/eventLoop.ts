// Node's (the main process, workers, scripts). Declared here rather than taken from the Node
// types so the renderer's typecheck, which has none, accepts src/shared; the renderer never
// imports this file.
declare const setImmediate: (callback: () => void) => unknown

/**
 * Gives the event loop back for one turn, so IPC, streams and timers run between the slices of
 * a long computation. `setImmediate`, not a zero timeout: it runs after pending I/O and is not
 * clamped to a millisecond.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
}

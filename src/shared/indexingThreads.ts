/**
 * How many workers embed in the background (the memory setting `indexingThreads`), shared by
 * main, which starts them, and the settings page, which offers the choice.
 */

/** The most the setting accepts; a machine with fewer cores runs as many as it has. */
export const MAX_INDEXING_THREADS = 16

/** Half the cores, at least one: the other half stays free for the chat and the rest. */
export function defaultIndexingThreads(cores: number): number {
  return Math.max(1, Math.floor(cores / 2))
}

/** The setting (null: the default) as it runs on a machine with `cores` cores. */
export function indexingThreadsFor(setting: number | null | undefined, cores: number): number {
  const wanted = setting ?? defaultIndexingThreads(cores)
  return Math.min(Math.max(1, Math.floor(wanted)), Math.max(1, cores), MAX_INDEXING_THREADS)
}

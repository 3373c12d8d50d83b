import { MEMORY_CATEGORIES, type MemoryCategory } from '@shared/domain'

/** For text from a <select> or from main's English: only the four known categories pass. */
export const isMemoryCategory = (value: string): value is MemoryCategory =>
  (MEMORY_CATEGORIES as readonly string[]).includes(value)

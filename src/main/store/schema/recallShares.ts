import type { Migration } from '../migrations'

/** The retrieved share's default before version 21, copied: a released migration never moves. */
const RETRIEVED_BEFORE = 10

/** json_type of a share that is set (a stored null restores the default, like an absent one). */
const NUMBER = "('integer', 'real')"
const GLOBAL_CONTEXT = "(SELECT value FROM settings WHERE key = 'context')"

/**
 * Migration 21 on thread overrides that would still resolve the retrieved share from the default.
 * A single UPDATE ending in its WHERE: an import narrows it to one thread (threadBudgetUpgrades.ts).
 */
export const PIN_THREAD_RETRIEVED = `
      UPDATE threads
         SET settings = json_set(settings, '$.context.percentages.retrieved', ${RETRIEVED_BEFORE})
       WHERE json_type(settings, '$.context.percentages.recent') IN ${NUMBER}
         AND coalesce(json_type(settings, '$.context.percentages.retrieved') NOT IN ${NUMBER}, 1)
         AND coalesce(json_type(${GLOBAL_CONTEXT}, '$.percentages.retrieved') NOT IN ${NUMBER}, 1)`

export const RECALL_SHARES: readonly Migration[] = [
  {
    version: 21,
    name: 'budgets that set the recent share keep the retrieved share they were saved with',
    // The defaults moved 10 % from recent to retrieved (45/10 → 40/15; docs/EVALUATION.md,
    // "Room for this thread's older turns"). A saved layer that sets its own recent share was
    // checked against retrieved's old 10 %; under the new 15 % it could add up to over 100 %
    // and refuse every build. So it keeps retrieved at 10 %: the global layer first, then each
    // thread override that would still resolve it from the default. A layer that sets neither,
    // or sets retrieved itself, is untouched and follows the new defaults.
    sql: `
      UPDATE settings
         SET value = json_set(value, '$.percentages.retrieved', ${RETRIEVED_BEFORE})
       WHERE key = 'context'
         AND json_type(value, '$.percentages.recent') IN ${NUMBER}
         AND coalesce(json_type(value, '$.percentages.retrieved') NOT IN ${NUMBER}, 1);

      ${PIN_THREAD_RETRIEVED};
    `
  }
]

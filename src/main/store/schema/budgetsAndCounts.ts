/**
 * Migrations 17-18: budgets saved before the attachments and tools sections keep their meaning,
 * and vector counts kept by triggers. Never edited once released (see migrations.ts).
 */
import type { Migration } from '../migrations'

/**
 * Migration 17: the shares a stored layer resolves to, in SQL. The defaults as contextConfig had
 * them when it was released, copied rather than imported: a released migration must not change
 * meaning when a later version changes the defaults.
 */
const SHARE_DEFAULTS = {
  system: 15,
  summary: 10,
  retrieved: 10,
  recent: 45,
  input: 5,
  attachments: 10,
  tools: 5
}
const GLOBAL_CONTEXT = "(SELECT value FROM settings WHERE key = 'context')"
/** A thread's override resolves over the global one: marked so shareOf reads both. */
const THREAD = 'thread'

function shareOf(layer: string, section: keyof typeof SHARE_DEFAULTS): string {
  const fallback = String(SHARE_DEFAULTS[section])
  if (layer !== THREAD)
    return `coalesce(json_extract(${layer}, '$.percentages.${section}'), ${fallback})`
  return `coalesce(json_extract(settings, '$.context.percentages.${section}'), json_extract(${GLOBAL_CONTEXT}, '$.percentages.${section}'), ${fallback})`
}

function oldFive(layer: string): string {
  return (['system', 'summary', 'retrieved', 'recent', 'input'] as const)
    .map((section) => shareOf(layer, section))
    .join(' + ')
}

function legacyOver(layer: string): string {
  return `(${oldFive(layer)}) + ${shareOf(layer, 'attachments')} + ${shareOf(layer, 'tools')} > 100`
}

/** What is left for the section after the old five shares (attachments before tools). */
function fitted(layer: string, section: 'attachments' | 'tools'): string {
  const room = `max(0, 100 - (${oldFive(layer)}))`
  const attachments = `min(${shareOf(layer, 'attachments')}, ${room})`
  return section === 'attachments'
    ? attachments
    : `min(${shareOf(layer, 'tools')}, max(0, 100 - (${oldFive(layer)}) - ${attachments}))`
}

/**
 * Migration 17 on thread overrides, as they resolve over the global one. A single UPDATE ending
 * in its WHERE: an import narrows it to one thread (threadBudgetUpgrades.ts).
 */
export const FIT_THREAD_SECTIONS = `
      UPDATE threads
         SET settings = json_set(settings,
               '$.context.percentages.attachments', ${fitted(THREAD, 'attachments')},
               '$.context.percentages.tools', ${fitted(THREAD, 'tools')})
       WHERE json_type(settings, '$.context.percentages') = 'object'
         AND ${legacyOver(THREAD)}`

export const BUDGETS_AND_COUNTS: readonly Migration[] = [
  {
    version: 17,
    name: 'budgets saved before the attachments and tools sections keep their meaning',
    // The new sections have default shares (attachments 10 %, tools 5 %). A saved budget whose
    // own shares leave less than that room would no longer add up to at most 100 %, so it gives
    // the new sections only what its shares leave: global first, then each thread override as
    // it resolves over the global one (contextConfig.ts).
    sql: `
      UPDATE settings
         SET value = json_set(value,
               '$.percentages.attachments', ${fitted('value', 'attachments')},
               '$.percentages.tools', ${fitted('value', 'tools')})
       WHERE key = 'context'
         AND json_type(value, '$.percentages') = 'object'
         AND ${legacyOver('value')};

      ${FIT_THREAD_SECTIONS};
    `
  },
  {
    version: 18,
    name: 'message vector counts kept by triggers',
    // The memory status shows how many messages have a vector. COUNT(*) over a vector table
    // reads every 1.5 KB row: 90 ms at 100,000 messages, on the main thread after every send
    // (issue #16). Each space's table now keeps its count here by triggers (store/vectors/vectorStore.ts);
    // a space made before this version gets its row on its first count.
    sql: `
      CREATE TABLE vector_counts (
        space_id INTEGER PRIMARY KEY REFERENCES vector_spaces (id) ON DELETE CASCADE,
        messages INTEGER NOT NULL
      );
    `
  }
]

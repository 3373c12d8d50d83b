import * as englishNamespaces from './en'
import * as chineseNamespaces from './zh-CN'

// The one i18next resource per language, assembled from a file per namespace.

/** English strings: the source of truth for the shape every other locale must match. */
export const en = { ...englishNamespaces }

/** What i18next.d.ts types t() keys against. */
export type Translation = typeof en

/**
 * Simplified Chinese strings. A namespace missing here, or a key missing or extra in one of its
 * files, fails the typecheck; test/renderer/i18n.test.tsx compares the two key lists as well.
 */
export const zhCN: Translation = { ...chineseNamespaces }

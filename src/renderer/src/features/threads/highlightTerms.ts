export interface TextPart {
  text: string
  match: boolean
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Splits plain text into matching and non-matching parts for each whitespace-separated term of
 * a query, case-insensitively. The result is rendered as text nodes, so no HTML is ever built
 * from a snippet.
 */
export function highlightTerms(text: string, query: string): TextPart[] {
  const terms = [...new Set(query.trim().split(/\s+/).filter(Boolean))]
    // Longest first: for the query "chat chatbot", all of "chatbot" is marked, not only "chat".
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
  if (terms.length === 0) return [{ text, match: false }]
  const pattern = new RegExp(`(${terms.join('|')})`, 'giu')
  // split() with one capturing group puts the matches at the odd indices.
  return text
    .split(pattern)
    .map((part, index) => ({ text: part, match: index % 2 === 1 }))
    .filter((part) => part.text !== '')
}

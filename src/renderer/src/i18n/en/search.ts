export const search = {
  label: 'Search threads and messages',
  placeholder: 'Search all threads',
  clear: 'Clear search',
  resultsLabel: 'Search results',
  searching: 'Searching…',
  noResults: 'Nothing matches “{{query}}”.',
  titleMatch: 'Title',
  exactTitle: 'Matching words',
  semanticTitle: 'Related by meaning',
  semanticSearching: 'Looking for related messages…',
  /** Calibrated similarity: 0.6 means related, 1 means the same. */
  similarity: 'similarity {{value}}'
}

import type { SearchHit } from '@shared/domain'
import type { SearchRepository } from '../../store/search/searchRepository'

const DEFAULT_LIMIT = 30

/** Sidebar search; the memory issue adds semantic matches beside these full-text ones. */
export class SearchService {
  constructor(private readonly index: SearchRepository) {}

  query(text: string, limit: number = DEFAULT_LIMIT): SearchHit[] {
    return this.index.search(text, limit)
  }
}

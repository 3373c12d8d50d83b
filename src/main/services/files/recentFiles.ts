/**
 * The newest files' text and chunks, kept in memory: a preview runs on every pause in typing,
 * and reading a 2 MB text and parsing its chunks from SQLite each time would cost the main
 * thread tens of milliseconds per keystroke. Content-addressed, so an entry never goes stale.
 */
import type { FileRepository, StoredChunk } from '../../store/fileRepository'

const KEPT = 4

export interface FileContent {
  text: string
  /** Null until the file worker has chunked it. */
  chunks: StoredChunk[] | null
}

export class RecentFiles {
  private readonly entries = new Map<string, FileContent>()

  constructor(
    private readonly files: FileRepository,
    private readonly chunker: string
  ) {}

  get(hash: string): FileContent | null {
    const cached = this.entries.get(hash)
    if (cached?.chunks) {
      this.entries.delete(hash)
      this.entries.set(hash, cached)
      return cached
    }
    const text = cached?.text ?? this.files.getFile(hash)?.text
    if (!text) return null
    const content = { text, chunks: this.files.chunks(hash, this.chunker) }
    this.entries.delete(hash)
    this.entries.set(hash, content)
    while (this.entries.size > KEPT) this.entries.delete(this.entries.keys().next().value as string)
    return content
  }
}

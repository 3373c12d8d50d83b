import type { BuiltContext, StoredBuild } from '@shared/context'

/**
 * A turn's build between being built and being stored. The request is sent first and the
 * build stored once it has left (storing a 1 MB build takes tens of ms, which the user would
 * otherwise wait for before the request starts). `store` runs at most once and never throws;
 * `saved` carries the stored build or the failure to whoever answers the send. The user's
 * message is stored before any of this, so a crash in between loses only this record, which
 * the next send rebuilds from the same thread.
 */
export class PendingBuild {
  readonly saved: Promise<StoredBuild>
  private settle!: { resolve: (build: StoredBuild) => void; reject: (error: unknown) => void }
  private stored = false

  constructor(
    readonly context: BuiltContext,
    private readonly save: () => StoredBuild
  ) {
    this.saved = new Promise((resolve, reject) => {
      this.settle = { resolve, reject }
    })
  }

  store(): void {
    if (this.stored) return
    this.stored = true
    try {
      this.settle.resolve(this.save())
    } catch (error) {
      this.settle.reject(error)
    }
  }
}

/**
 * Calls waiting for the user's consent. A call asks, the renderer shows it with its arguments
 * (`tools:approval`), and the user answers once, always for this tool, or deny. Stop rejects
 * the wait. Nothing here runs a tool: the loop runs it only after a yes.
 */
import type { ApprovalDecision, ToolApprovalRequest } from '@shared/tools'
import type { Publish } from '../events'

interface Waiting {
  request: ToolApprovalRequest
  answer: (decision: ApprovalDecision) => void
}

class ApprovalStoppedError extends Error {
  constructor() {
    super('The approval was cancelled: the reply was stopped.')
    this.name = 'ApprovalStoppedError'
  }
}

export class ApprovalGate {
  private readonly waiting = new Map<string, Waiting>()

  constructor(private readonly publish: Publish) {}

  ask(request: ToolApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(new ApprovalStoppedError())
    return new Promise((resolve, reject) => {
      const key = this.key(request.threadId, request.callId)
      const onAbort = () => {
        this.waiting.delete(key)
        this.publish('tools:approvalSettled', {
          threadId: request.threadId,
          callId: request.callId,
          decision: 'deny'
        })
        reject(new ApprovalStoppedError())
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(key, {
        request,
        answer: (decision) => {
          signal.removeEventListener('abort', onAbort)
          this.waiting.delete(key)
          this.publish('tools:approvalSettled', {
            threadId: request.threadId,
            callId: request.callId,
            decision
          })
          resolve(decision)
        }
      })
      this.publish('tools:approval', request)
    })
  }

  /** False when nothing waits under that id (answered already, or stopped). */
  answer(threadId: string, callId: string, decision: ApprovalDecision): boolean {
    const waiting = this.waiting.get(this.key(threadId, callId))
    if (!waiting) return false
    waiting.answer(decision)
    return true
  }

  pending(threadId: string): ToolApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request).filter((r) => r.threadId === threadId)
  }

  private key(threadId: string, callId: string): string {
    return `${threadId}\u0000${callId}`
  }
}

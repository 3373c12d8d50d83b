import type { EventName, EventPayload } from '@shared/contract'

/** How services tell the renderer something changed; Electron and the test harness implement it. */
export type Publish = <E extends EventName>(event: E, payload: EventPayload<E>) => void

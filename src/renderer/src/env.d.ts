/// <reference types="vite/client" />
import type { Api } from '@shared/api'

declare global {
  interface Window {
    /** Exposed by the preload bridge; the renderer's only way to reach the main process. */
    api: Api
  }
}

export {}

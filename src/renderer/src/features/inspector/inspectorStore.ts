import { create } from 'zustand'
import type { BuiltContext, SectionName, StoredBuild } from '@shared/context'
import type { ContextConfigPatch, ContextConfigView } from '@shared/contextConfig'
import { ApiError, call, describeError } from '@renderer/lib/call'
import { latestRequest } from '@renderer/lib/latestRequest'
import { applyWhatIf, isEmptyPatch, type WhatIfChange } from './whatIf'

/**
 * Keystrokes within this window share one preview. With the request's own few milliseconds
 * the panel stays within ~150 ms of what the user typed.
 */
export const PREVIEW_DELAY_MS = 120

/** As many sent builds as main keeps per thread. */
const HISTORY_LIMIT = 20

type ConfigScope = 'global' | 'thread'

interface InspectorState {
  threadId: string | null
  /** The text the next preview is built for: the open thread's composer draft. */
  draft: string
  /** The newest build of the draft; kept while a newer one is on its way or failed. */
  preview: BuiltContext | null
  /** A failure unrelated to the settings form (thread gone, main unreachable). */
  error: string | null
  /** Unsaved settings applied to the preview only. */
  whatIf: ContextConfigPatch
  /** Why the what-if or a save was refused; shown next to the inputs. */
  configError: string | null
  config: ContextConfigView | null
  saving: boolean
  /** Builds sent in this thread, newest first. */
  builds: StoredBuild[]
  /** A sent build shown instead of the live preview; null shows the preview. */
  selectedBuildId: number | null
  /** A section the panel should bring into view (from the chat's gauge); `at` tells repeats apart. */
  focus: { section: SectionName; at: number } | null

  /** Starts over for another thread (or none), loading its settings, history and preview. */
  openThread(threadId: string | null, draft: string): void
  /** The draft changed: preview it soon, coalescing keystrokes. */
  setDraft(draft: string): void
  /** Something the build depends on changed (a send, a flag): preview again now. */
  refresh(): void
  changeWhatIf(change: WhatIfChange): void
  resetWhatIf(): void
  saveConfig(scope: ConfigScope): Promise<boolean>
  /** A build main just sent (the `context:built` event). */
  addBuild(build: StoredBuild): void
  showBuild(buildId: number): void
  showPreview(): void
  /** Shows a build (null: the live preview) at one section, as the gauge asks. */
  focusSection(section: SectionName, buildId: number | null): void
  /** Cancels a scheduled preview; the panel calls it when it closes. */
  stop(): void
}

/**
 * Names the setting a refusal is about, the way main's own config errors do ("percentages:
 * …"), since the form shows several inputs and one message.
 */
function describeConfigError(error: unknown): string {
  if (!(error instanceof ApiError) || !error.issues?.length) return describeError(error)
  return error.issues
    .map(({ path, message }) => `${path.replace(/^(whatIf|patch)\./, '')}: ${message}`)
    .join(' · ')
}

const newestFirst = (a: StoredBuild, b: StoredBuild): number =>
  b.createdAt - a.createdAt || b.id - a.id

function withBuilds(existing: StoredBuild[], added: StoredBuild[]): StoredBuild[] {
  const byId = new Map(existing.map((build) => [build.id, build]))
  for (const build of added) byId.set(build.id, build)
  return [...byId.values()].sort(newestFirst).slice(0, HISTORY_LIMIT)
}

const cleanState = {
  preview: null,
  error: null,
  whatIf: {},
  configError: null,
  config: null,
  saving: false,
  builds: [],
  selectedBuildId: null,
  focus: null
} satisfies Partial<InspectorState>

export const useInspectorStore = create<InspectorState>()((set, get) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  // Answers can overtake each other. A preview older than the one on screen is dropped; a
  // newer one is shown even if still newer requests are pending (`claim`), so a slow main
  // process still makes progress instead of starving the panel. Opening a thread supersedes
  // everything on its way, even for the same thread visited before.
  const previews = latestRequest()
  // Loading a thread and saving its settings both answer with the configuration.
  const configs = latestRequest()

  const fetchPreview = async (): Promise<void> => {
    const { threadId, draft, whatIf } = get()
    if (!threadId) return
    const ticket = previews.start()
    const trying = !isEmptyPatch(whatIf)
    try {
      const preview = await call(
        window.api.context.preview({ threadId, draft, ...(trying && { whatIf }) })
      )
      if (!ticket.claim()) return
      set({ preview, error: null, configError: null })
    } catch (error) {
      if (!ticket.claim()) return
      // A refused what-if keeps the last good preview on screen and explains at the inputs.
      if (trying && error instanceof ApiError && error.code === 'invalid_input') {
        set({ configError: describeConfigError(error) })
      } else {
        set({ error: describeError(error) })
      }
    }
  }

  const cancel = (): void => {
    clearTimeout(timer)
    timer = undefined
  }

  /**
   * A trailing throttle rather than a debounce: a debounce would wait for typing to pause, so
   * a steady typist would see nothing for seconds. This previews the latest text at most
   * PREVIEW_DELAY_MS after the first unseen change.
   */
  const schedule = (): void => {
    timer ??= setTimeout(() => {
      timer = undefined
      void fetchPreview()
    }, PREVIEW_DELAY_MS)
  }

  const previewNow = (): void => {
    cancel()
    void fetchPreview()
  }

  const loadThread = async (threadId: string): Promise<void> => {
    const ticket = configs.start()
    try {
      const [config, builds] = await Promise.all([
        call(window.api.context.getConfig({ threadId })),
        call(window.api.context.builds({ threadId }))
      ])
      if (get().threadId !== threadId) return
      // Builds announced by events while this loaded are kept; sent builds never change, so
      // even an older answer only adds.
      set((state) => ({
        ...(ticket.isLatest() && { config }),
        builds: withBuilds(state.builds, builds)
      }))
    } catch (error) {
      if (ticket.isLatest() && get().threadId === threadId) set({ error: describeError(error) })
    }
  }

  return {
    threadId: null,
    draft: '',
    ...cleanState,

    openThread(threadId, draft) {
      cancel()
      previews.supersede()
      set({ threadId, draft, ...cleanState })
      if (!threadId) return
      void loadThread(threadId)
      previewNow()
    },

    setDraft(draft) {
      set({ draft })
      schedule()
    },

    refresh: previewNow,

    changeWhatIf(change) {
      set((state) => ({
        whatIf: applyWhatIf(state.whatIf, change, state.config?.effective ?? null),
        // Settings being tried out only mean something for the live preview.
        selectedBuildId: null
      }))
      schedule()
    },

    resetWhatIf() {
      set({ whatIf: {}, configError: null })
      previewNow()
    },

    async saveConfig(scope) {
      const { threadId, whatIf } = get()
      if (!threadId || isEmptyPatch(whatIf)) return false
      const ticket = configs.start()
      set({ saving: true })
      try {
        const config = await call(
          window.api.context.updateConfig({ scope, threadId, patch: whatIf })
        )
        if (get().threadId !== threadId) return true
        set({ ...(ticket.isLatest() && { config }), whatIf: {}, configError: null, saving: false })
        previewNow()
        return true
      } catch (error) {
        if (get().threadId === threadId) {
          set({ configError: describeConfigError(error), saving: false })
        }
        return false
      }
    },

    addBuild(build) {
      if (build.threadId !== get().threadId) return
      set((state) => ({ builds: withBuilds(state.builds, [build]) }))
    },

    showBuild: (buildId) => set({ selectedBuildId: buildId }),
    showPreview: () => set({ selectedBuildId: null }),
    focusSection: (section, buildId) =>
      set((state) => ({
        selectedBuildId: buildId,
        focus: { section, at: (state.focus?.at ?? 0) + 1 }
      })),
    stop: cancel
  }
})

/** Where the numbers shown by default come from (no sent build chosen). */
export type DefaultSource = 'draft' | 'sent' | 'next'

export interface DefaultView {
  source: DefaultSource
  context: BuiltContext
  /** The stored build, when the view is the last one sent. */
  build: StoredBuild | null
}

/**
 * What the gauge and the inspector show unless a sent build is chosen: while the user types,
 * the live preview of the draft; with an empty draft, the last request as it was sent, or,
 * before anything was sent, the preview of the next request. One rule for both, so the two
 * never show different totals.
 */
export function defaultView(
  draft: string,
  preview: BuiltContext | null,
  lastSent: StoredBuild | null
): DefaultView | null {
  if (draft.trim() !== '' && preview) return { source: 'draft', context: preview, build: null }
  if (lastSent) return { source: 'sent', context: lastSent.context, build: lastSent }
  return preview ? { source: 'next', context: preview, build: null } : null
}

/** The inspector's default view; settings being tried out only show in a preview. */
function inspectorDefault(state: InspectorState): DefaultView | null {
  const lastSent = isEmptyPatch(state.whatIf) ? (state.builds[0] ?? null) : null
  return defaultView(state.draft, state.preview, lastSent)
}

/** The build the panel shows: the chosen sent build, or else the default view. */
export function selectShownBuild(state: InspectorState): BuiltContext | null {
  if (state.selectedBuildId === null) return inspectorDefault(state)?.context ?? null
  return state.builds.find((build) => build.id === state.selectedBuildId)?.context ?? null
}

/** The sent build the panel shows (chosen in History, or the last one by default), if any. */
export function selectSentBuild(state: InspectorState): StoredBuild | null {
  if (state.selectedBuildId === null) return inspectorDefault(state)?.build ?? null
  return selectSelectedBuild(state)
}

export function selectSelectedBuild(state: InspectorState): StoredBuild | null {
  return state.builds.find((build) => build.id === state.selectedBuildId) ?? null
}

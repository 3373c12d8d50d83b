import type { ContextConfig } from '@shared/contextConfig'
import type { BuildRequest, BuildWarning, BuiltContext } from '@shared/context'
import { CompressorEngine, type CompressorEngineOptions } from '../compressor/compressorEngine'
import { BuilderEngine } from './builderEngine'
import type { ContextEngine } from './contextEngine'

const DEFAULT_ENGINE = 'builder'

export interface EngineRegistryOptions {
  /** Options for the built-in `compressor` engine (its summarizer, threshold...). */
  compressor?: CompressorEngineOptions
}

/**
 * Engines that ship with the app besides the builder. Each is created the first time its name
 * is selected, so a registry (and the inspector's list of engines) only holds what is used; an
 * engine registered under the same name takes precedence.
 */
const BUILT_IN: Record<string, (options: EngineRegistryOptions) => ContextEngine> = {
  compressor: (options) => new CompressorEngine(options.compressor)
}

export interface EngineSelection {
  engine: ContextEngine
  /** Set when the configured engine does not exist and the default stands in. */
  warning: BuildWarning | null
}

/** Engines by name; `context.engine` selects exactly one. The builder is always registered. */
export class EngineRegistry {
  private readonly engines = new Map<string, ContextEngine>()

  constructor(
    engines: readonly ContextEngine[] = [],
    private readonly options: EngineRegistryOptions = {}
  ) {
    this.register(new BuilderEngine())
    engines.forEach((engine) => this.register(engine))
  }

  /** Like Hermes, a second engine under a taken name is refused, not silently swapped in. */
  register(engine: ContextEngine): void {
    if (this.engines.has(engine.name)) {
      throw new Error(`A context engine named "${engine.name}" is already registered.`)
    }
    this.engines.set(engine.name, engine)
  }

  names(): string[] {
    return [...this.engines.keys()]
  }

  /** Registered engines plus the built-in ones not created yet. */
  availableNames(): string[] {
    return [...new Set([...this.names(), ...Object.keys(BUILT_IN)])]
  }

  select(name: string): EngineSelection {
    let engine = this.engines.get(name)
    const builtIn = Object.hasOwn(BUILT_IN, name) ? BUILT_IN[name] : undefined
    if (!engine && builtIn) {
      engine = builtIn(this.options)
      this.register(engine)
    }
    if (engine) return { engine, warning: null }
    return {
      engine: this.engines.get(DEFAULT_ENGINE) as ContextEngine,
      warning: {
        code: 'engine_fallback',
        message: `No context engine named "${name}" (have: ${this.names().join(', ')}); using "${DEFAULT_ENGINE}".`
      }
    }
  }

  /** Builds with the configured engine; a fallback is reported in the build's warnings. */
  build(request: BuildRequest, config: ContextConfig): BuiltContext {
    const { engine, warning } = this.select(config.engine)
    if (!warning) return engine.build(request, config)
    return engine.build({ ...request, warnings: [...(request.warnings ?? []), warning] }, config)
  }
}

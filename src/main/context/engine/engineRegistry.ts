import type { ContextConfig } from '@shared/contextConfig'
import type { BuildRequest, BuildWarning, BuiltContext } from '@shared/context'
import { BuilderEngine } from './builderEngine'
import type { ContextEngine } from './contextEngine'

export const DEFAULT_ENGINE = 'builder'

export interface EngineSelection {
  engine: ContextEngine
  /** Set when the configured engine does not exist and the default stands in. */
  warning: BuildWarning | null
}

/** Engines by name; `context.engine` selects exactly one. The builder is always registered. */
export class EngineRegistry {
  private readonly engines = new Map<string, ContextEngine>()

  constructor(engines: readonly ContextEngine[] = []) {
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

  select(name: string): EngineSelection {
    const engine = this.engines.get(name)
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

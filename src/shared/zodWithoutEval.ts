/**
 * Imported first by the renderer and the preload, before any schema is built: zod 4 probes
 * `new Function` when it builds its first object schema, to compile fast parsers. Under the
 * renderer's CSP (no 'unsafe-eval') the probe fails quietly but still raises a CSP violation
 * report on every load. Neither process parses on a hot path (main validates every payload,
 * and keeps the compiled parsers), so they go without.
 */
import { z } from 'zod'

z.config({ jitless: true })

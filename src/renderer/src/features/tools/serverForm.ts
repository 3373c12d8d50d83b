import type { McpServerInput } from '@shared/tools'

/** The add-server form's fields, as typed. */
export interface ServerDraft {
  name: string
  kind: 'stdio' | 'http'
  command: string
  args: string
  env: string
  cwd: string
  url: string
  headers: string
  enabled: boolean
}

export const EMPTY_DRAFT: ServerDraft = {
  name: '',
  kind: 'stdio',
  command: '',
  args: '',
  env: '',
  cwd: '',
  url: '',
  headers: '',
  enabled: true
}

export type DraftResult =
  | { ok: true; input: McpServerInput }
  | { ok: false; line: number; format: 'NAME=value' | 'Name: value' }

const lines = (text: string) => text.split('\n').map((l) => l.trim())

/** `NAME=value` or `Name: value` lines into a map; the first malformed line is reported. */
function pairs(text: string, separator: '=' | ':'): Record<string, string> | { bad: number } {
  const out: Record<string, string> = {}
  const all = lines(text)
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string
    if (line === '') continue
    const at = line.indexOf(separator)
    if (at <= 0) return { bad: i + 1 }
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return out
}

type Pairs = Record<string, string> | { bad: number }
const isBad = (p: Pairs): p is { bad: number } => typeof p.bad === 'number'

/** The contract's input from the form; main validates it again (names, URL, sizes). */
export function draftToInput(draft: ServerDraft): DraftResult {
  if (draft.kind === 'http') {
    const headers = pairs(draft.headers, ':')
    if (isBad(headers)) return { ok: false, line: headers.bad, format: 'Name: value' }
    return {
      ok: true,
      input: {
        name: draft.name,
        enabled: draft.enabled,
        config: { kind: 'http', url: draft.url.trim(), headers }
      }
    }
  }
  const env = pairs(draft.env, '=')
  if (isBad(env)) return { ok: false, line: env.bad, format: 'NAME=value' }
  return {
    ok: true,
    input: {
      name: draft.name,
      enabled: draft.enabled,
      config: {
        kind: 'stdio',
        command: draft.command.trim(),
        args: lines(draft.args).filter((a) => a !== ''),
        env,
        cwd: draft.cwd.trim() === '' ? null : draft.cwd.trim()
      }
    }
  }
}

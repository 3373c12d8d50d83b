/**
 * Secrets never reach a summarizer: a summary is stored, shown in the inspector and sent with
 * every later request, so a key pasted once would otherwise live on in all of them. Redaction
 * is applied to the summarizer's whole input and is idempotent.
 */

export const REDACTED = '[REDACTED]'

interface SecretPattern {
  kind: string
  pattern: RegExp
  /** Keeps the part of the match that is not secret (a key name, "Bearer"). */
  replace: (match: string, ...groups: string[]) => string
}

const whole = (): string => REDACTED

// Order matters: specific formats first, so "sk-ant-..." is not half-eaten by "sk-...", and the
// generic key=value rule last, so it only sees what no specific rule recognised.
const PATTERNS: readonly SecretPattern[] = [
  {
    kind: 'private key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    replace: whole
  },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, replace: whole },
  { kind: 'OpenAI-style key', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, replace: whole },
  {
    kind: 'GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
    replace: whole
  },
  { kind: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replace: whole },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: whole },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: whole },
  {
    kind: 'JWT',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    replace: whole
  },
  {
    kind: 'Bearer token',
    // A credential has a digit or is long; "bearer of bad news" stays as it is.
    pattern:
      /\b(Bearer)(\s+)(?!\[REDACTED\])(?:(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}|[A-Za-z0-9._~+/=-]{20,})/gi,
    replace: (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`
  },
  {
    // api_key=..., "password": "...", AWS_SECRET_ACCESS_KEY: ..., client-secret ...; the name
    // must END with the secret word, so max_tokens=4096 or token_count: 12 stay readable.
    kind: 'key=value secret',
    pattern:
      /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]*(?:api[_-]?key|apikey|secret(?:[_-]?access)?[_-]?key|secret|token|passwd|password|pwd|access[_-]?key|private[_-]?key|credentials?)(["']?\s*[:=]\s*["']?))(?!\[REDACTED\])([^\s"',;&]{6,})/gi,
    replace: (_m, key: string) => `${key}${REDACTED}`
  }
]

/** Replaces API keys, tokens, private keys and key=value secrets with "[REDACTED]". */
export function redactSecrets(text: string): string {
  let result = text
  for (const { pattern, replace } of PATTERNS) {
    result = result.replace(pattern, replace as (substring: string, ...args: unknown[]) => string)
  }
  return result
}

/**
 * API keys at rest. Keys are encrypted by a `Cipher` (Electron's safeStorage in the app, backed
 * by the OS keychain/DPAPI/libsecret) and only the ciphertext reaches the settings table. When
 * the platform cannot encrypt, keys are refused: never stored in plaintext, never "for now".
 * Plaintext leaves this module only through `get`, for the one provider call that needs it.
 */

/** Encrypts short strings with a key the OS holds. safeStorage implements it in index.ts. */
export interface Cipher {
  isAvailable(): boolean
  encrypt(plaintext: string): Buffer
  decrypt(ciphertext: Buffer): string
}

/** The persistence port; SettingsRepository has exactly this shape. */
export interface KeyValueStore {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

export interface SecretStore {
  isEncryptionAvailable(): boolean
  /** Throws SecretStoreError('encryption_unavailable') rather than store plaintext. */
  set(ref: string, plaintext: string): void
  /** The plaintext, or null when nothing is stored under `ref`. */
  get(ref: string): string | null
  delete(ref: string): void
  has(ref: string): boolean
  /** A masked hint ("sk-…abcd") kept beside the ciphertext, so listing needs no decryption. */
  hint(ref: string): string | null
}

export type SecretStoreErrorCode = 'encryption_unavailable' | 'decrypt_failed' | 'cipher_failed'

/** Messages never contain the secret: they say what went wrong and what to do. */
export class SecretStoreError extends Error {
  constructor(
    readonly code: SecretStoreErrorCode,
    message: string
  ) {
    super(message)
    this.name = 'SecretStoreError'
  }
}

/** The settings key holding every encrypted secret: { [ref]: { ciphertext, hint } }. */
export const SECRETS_KEY = 'secrets.v1'

interface StoredSecret {
  /** base64 of the cipher's output. */
  ciphertext: string
  hint: string
}

/**
 * "sk-proj-abc…wxyz" becomes "sk-…wxyz": a recognisable prefix (up to the first dash) and the
 * last four characters. Short keys show only their length class, never their characters.
 */
export function maskSecret(secret: string): string {
  const trimmed = secret.trim()
  if (trimmed.length < 12) return '…'
  const dash = trimmed.indexOf('-')
  const prefix = dash > 0 && dash <= 4 ? trimmed.slice(0, dash + 1) : ''
  return `${prefix}…${trimmed.slice(-4)}`
}

export class EncryptedSecretStore implements SecretStore {
  constructor(
    private readonly cipher: Cipher,
    private readonly store: KeyValueStore
  ) {}

  isEncryptionAvailable(): boolean {
    try {
      return this.cipher.isAvailable()
    } catch {
      return false
    }
  }

  set(ref: string, plaintext: string): void {
    if (!this.isEncryptionAvailable()) {
      throw new SecretStoreError(
        'encryption_unavailable',
        'This system offers no encrypted storage for API keys (on Linux, a running keyring is needed: GNOME Keyring, KWallet, or KeePassXC with its Secret Service turned on), so the key was not saved.'
      )
    }
    let ciphertext: Buffer
    try {
      ciphertext = this.cipher.encrypt(plaintext)
    } catch {
      throw new SecretStoreError(
        'cipher_failed',
        'The API key could not be encrypted, so it was not saved.'
      )
    }
    // A cipher that hands the text back unchanged would put the key in the database.
    if (plaintext.length > 0 && ciphertext.includes(Buffer.from(plaintext, 'utf8'))) {
      throw new SecretStoreError(
        'cipher_failed',
        'The encryption backend returned the key unencrypted, so it was not saved.'
      )
    }
    const all = this.read()
    all[ref] = { ciphertext: ciphertext.toString('base64'), hint: maskSecret(plaintext) }
    this.store.set(SECRETS_KEY, all)
  }

  get(ref: string): string | null {
    const entry = this.read()[ref]
    if (!entry) return null
    if (!this.isEncryptionAvailable()) {
      throw new SecretStoreError(
        'encryption_unavailable',
        'The stored API key cannot be decrypted because encrypted storage is unavailable right now.'
      )
    }
    try {
      return this.cipher.decrypt(Buffer.from(entry.ciphertext, 'base64'))
    } catch {
      // Typically a key encrypted under another OS user or a reset keychain: ask for it again.
      throw new SecretStoreError(
        'decrypt_failed',
        'The stored API key could not be decrypted; enter it again in the provider settings.'
      )
    }
  }

  delete(ref: string): void {
    const all = this.read()
    if (!(ref in all)) return
    delete all[ref]
    this.store.set(SECRETS_KEY, all)
  }

  has(ref: string): boolean {
    return ref in this.read()
  }

  hint(ref: string): string | null {
    return this.read()[ref]?.hint ?? null
  }

  private read(): Record<string, StoredSecret> {
    const value = this.store.get(SECRETS_KEY)
    if (typeof value !== 'object' || value === null) return {}
    const out: Record<string, StoredSecret> = {}
    for (const [ref, entry] of Object.entries(value as Record<string, unknown>)) {
      if (isStoredSecret(entry)) out[ref] = entry
    }
    return out
  }
}

function isStoredSecret(value: unknown): value is StoredSecret {
  if (typeof value !== 'object' || value === null) return false
  const entry = value as Record<string, unknown>
  return typeof entry.ciphertext === 'string' && typeof entry.hint === 'string'
}

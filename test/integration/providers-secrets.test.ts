import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  EncryptedSecretStore,
  SECRETS_KEY,
  SecretStoreError,
  maskSecret,
  type Cipher,
  type KeyValueStore
} from '../../src/main/services/providers/secretStore'
import { openDatabase } from '../../src/main/store/database'
import { SettingsRepository } from '../../src/main/store/settingsRepository'
import { aesCipher } from '../support/testCipher'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const KEY = 'sk-proj-Plaintext-Never-At-Rest-7f3e9a1b2c4d'

/** A real settings table in a real SQLite file, and the raw bytes of that file (and its WAL). */
function sqliteSettings() {
  const path = join(tempDir(), 'store.sqlite')
  const db = openDatabase(path, { loadVectorExtension: false })
  const settings = new SettingsRepository(db)
  const bytesOnDisk = () => {
    db.pragma('wal_checkpoint(PASSIVE)')
    return [path, `${path}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file))
  }
  return { db, settings, bytesOnDisk }
}

describe('API keys at rest', () => {
  it('stores only ciphertext in the settings table and the database file', () => {
    const { db, settings, bytesOnDisk } = sqliteSettings()
    const secrets = new EncryptedSecretStore(aesCipher(), settings)
    secrets.set('provider:a:apiKey', KEY)

    const row = db
      .prepare('SELECT value FROM settings WHERE key = ?')
      .pluck()
      .get(SECRETS_KEY) as string
    expect(row).not.toContain(KEY)
    expect(row).not.toContain('Plaintext-Never')
    const stored = JSON.parse(row) as Record<string, { ciphertext: string; hint: string }>
    expect(Object.keys(stored)).toEqual(['provider:a:apiKey'])
    expect(stored['provider:a:apiKey']!.hint).toBe('sk-…2c4d')
    for (const bytes of bytesOnDisk()) expect(bytes.includes(Buffer.from(KEY))).toBe(false)

    expect(secrets.get('provider:a:apiKey')).toBe(KEY)
    expect(secrets.has('provider:a:apiKey')).toBe(true)
    db.close()
  })

  it('deletes a key, and reports absence as null', () => {
    const { db, settings } = sqliteSettings()
    const secrets = new EncryptedSecretStore(aesCipher(), settings)
    secrets.set('one', KEY)
    secrets.set('two', 'sk-other-key-000000000000')
    secrets.delete('one')
    expect(secrets.get('one')).toBeNull()
    expect(secrets.has('one')).toBe(false)
    expect(secrets.hint('one')).toBeNull()
    expect(secrets.get('two')).toBe('sk-other-key-000000000000')
    db.close()
  })

  it('refuses to store a key when encryption is unavailable, and writes nothing', () => {
    const writes: unknown[] = []
    const store: KeyValueStore = {
      get: () => undefined,
      set: (_key, value) => void writes.push(value)
    }
    const secrets = new EncryptedSecretStore(aesCipher(false), store)
    expect(secrets.isEncryptionAvailable()).toBe(false)
    expect(() => secrets.set('provider:a:apiKey', KEY)).toThrow(SecretStoreError)
    try {
      secrets.set('provider:a:apiKey', KEY)
    } catch (error) {
      expect((error as SecretStoreError).code).toBe('encryption_unavailable')
      expect((error as Error).message).not.toContain(KEY)
      expect((error as Error).message).toMatch(/not saved/)
    }
    expect(writes).toEqual([])
  })

  it('refuses a "cipher" that returns the plaintext', () => {
    const writes: unknown[] = []
    const identity: Cipher = {
      isAvailable: () => true,
      encrypt: (text) => Buffer.concat([Buffer.from('v10'), Buffer.from(text, 'utf8')]),
      decrypt: (data) => data.subarray(3).toString('utf8')
    }
    const secrets = new EncryptedSecretStore(identity, {
      get: () => undefined,
      set: (_key, value) => void writes.push(value)
    })
    expect(() => secrets.set('x', KEY)).toThrow(/unencrypted/)
    expect(writes).toEqual([])
  })

  it('a key that no longer decrypts (another OS user, reset keychain) asks to re-enter it', () => {
    const { db, settings } = sqliteSettings()
    new EncryptedSecretStore(aesCipher(), settings).set('provider:a:apiKey', KEY)
    // A new cipher key: what a reset keychain looks like.
    const later = new EncryptedSecretStore(aesCipher(), settings)
    expect(() => later.get('provider:a:apiKey')).toThrow(/enter it again/)
    db.close()
  })
})

describe('masking', () => {
  it('shows a short prefix and the last four characters, never more', () => {
    expect(maskSecret('sk-proj-abcdefghijklmnop1234')).toBe('sk-…1234')
    expect(maskSecret('sk-ant-api03-xxxxxxxxxxxxxxxxwxyz')).toBe('sk-…wxyz')
    expect(maskSecret('AIzaSyD-0123456789abcdef')).toBe('…cdef')
    expect(maskSecret('short-key')).toBe('…')
  })
})

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Cipher } from '../../src/main/services/providers/secretStore'

/**
 * Stands in for Electron's safeStorage in tests and the e2e harness: AES-256-GCM under a key
 * the "OS" holds (random per cipher, so another cipher cannot read the ciphertext).
 */
export function aesCipher(available = true): Cipher {
  const key = randomBytes(32)
  return {
    isAvailable: () => available,
    encrypt(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
      decipher.setAuthTag(data.subarray(12, 28))
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
    }
  }
}

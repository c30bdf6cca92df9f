import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * The key credentials are encrypted with at rest (AES-256-GCM, node:crypto). Each sealed value
 * names the key it was sealed with (a fingerprint, not the key), so a service started with
 * another key says so at start instead of failing on every use.
 */
export interface CredentialsKey {
  readonly key: Buffer
  /** First 16 hex characters of the key's SHA-256: tells keys apart without revealing them. */
  readonly id: string
}

export const CREDENTIALS_KEY_FILE = 'credentials.key'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export class CredentialUnreadableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CredentialUnreadableError'
  }
}

export function credentialsKeyFrom(text: string): CredentialsKey {
  const trimmed = text.trim()
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64')
  if (key.length !== 32) throw new Error('A credentials key is 32 bytes (64 hexadecimal or 44 base64 characters)')
  return { key, id: createHash('sha256').update(key).digest('hex').slice(0, 16) }
}

/**
 * `CREDENTIALS_KEY` when set; otherwise the key kept in `dataDir`, made on first start (readable
 * by the owner only), like the demo tokens. Several processes sharing one database must be
 * given the same `CREDENTIALS_KEY`.
 */
export async function loadCredentialsKey(options: {
  credentialsKey: string | undefined
  dataDir: string
}): Promise<{ key: CredentialsKey; source: 'environment' | 'file' | 'generated'; file?: string }> {
  if (options.credentialsKey !== undefined) return { key: credentialsKeyFrom(options.credentialsKey), source: 'environment' }
  const file = join(options.dataDir, CREDENTIALS_KEY_FILE)
  if (existsSync(file)) return { key: credentialsKeyFrom(await readFile(file, 'utf8')), source: 'file', file }
  await mkdir(options.dataDir, { recursive: true })
  const text = randomBytes(32).toString('base64')
  // `wx`: two processes starting at once never overwrite each other's key.
  try {
    await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { key: credentialsKeyFrom(await readFile(file, 'utf8')), source: 'file', file }
    throw error
  }
  await chmod(file, 0o600)
  return { key: credentialsKeyFrom(text), source: 'generated', file }
}

/**
 * Encrypts `plaintext`; `context` (workspace, id and type) is authenticated with it, so a sealed
 * value copied to another row or workspace does not open.
 */
export function seal(key: CredentialsKey, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key.key, iv)
  cipher.setAAD(Buffer.from(context, 'utf8'))
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`
}

export function open(key: CredentialsKey, sealedText: string, context: string): string {
  const [version, payload] = sealedText.split('.')
  if (version !== VERSION || payload === undefined) throw new CredentialUnreadableError('Unknown credential format')
  const bytes = Buffer.from(payload, 'base64url')
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new CredentialUnreadableError('Truncated credential')
  const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(context, 'utf8'))
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    throw new CredentialUnreadableError('The credential does not open with this key (CREDENTIALS_KEY changed?)')
  }
}

/**
 * A key of its own for one other use of the credentials key (signing results cursors), derived
 * with HKDF-SHA256: what one use reveals says nothing about the key or the other uses.
 */
export function derivedKey(key: CredentialsKey, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key.key, Buffer.alloc(0), `flow-service ${purpose}`, 32))
}

import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  CREDENTIALS_KEY_FILE,
  CredentialUnreadableError,
  credentialsKeyFrom,
  loadCredentialsKey,
  open,
  seal,
} from '../../../src/service/credentials/credentials-key'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

const key = credentialsKeyFrom(randomBytes(32).toString('base64'))

describe('seal and open', () => {
  it('round-trips, and never stores the plaintext or the same ciphertext twice', () => {
    const a = seal(key, '{"password":"hunter2"}', 'ctx')
    const b = seal(key, '{"password":"hunter2"}', 'ctx')
    expect(a).not.toContain('hunter2')
    expect(a).not.toBe(b)
    expect(open(key, a, 'ctx')).toBe('{"password":"hunter2"}')
  })

  it('refuses another key, another context or a tampered value', () => {
    const sealed = seal(key, 'secret', 'workspace-a')
    const other = credentialsKeyFrom('cd'.repeat(32))
    expect(() => open(other, sealed, 'workspace-a')).toThrow(CredentialUnreadableError)
    expect(() => open(key, sealed, 'workspace-b')).toThrow(CredentialUnreadableError)
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA')
    expect(() => open(key, tampered, 'workspace-a')).toThrow(CredentialUnreadableError)
    expect(() => open(key, 'v9.abc', 'workspace-a')).toThrow(CredentialUnreadableError)
  })

  it('reads hex and base64 keys and tells keys apart by a fingerprint', () => {
    const hex = 'ab'.repeat(32)
    expect(credentialsKeyFrom(hex).id).toBe(credentialsKeyFrom(Buffer.from(hex, 'hex').toString('base64')).id)
    expect(credentialsKeyFrom(hex).id).not.toBe(key.id)
    expect(() => credentialsKeyFrom('too short')).toThrow(/32 bytes/)
  })
})

describe('loadCredentialsKey', () => {
  it('makes a key in the data directory on first start (owner-only), then keeps using it', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'creds-')), 'nested')
    dirs.push(dataDir)
    const first = await loadCredentialsKey({ credentialsKey: undefined, dataDir })
    expect(first.source).toBe('generated')
    const file = join(dataDir, CREDENTIALS_KEY_FILE)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const again = await loadCredentialsKey({ credentialsKey: undefined, dataDir })
    expect(again.source).toBe('file')
    expect(again.key.id).toBe(first.key.id)
    expect(credentialsKeyFrom(await readFile(file, 'utf8')).id).toBe(first.key.id)
  })

  it('prefers CREDENTIALS_KEY', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'creds-'))
    dirs.push(dataDir)
    const loaded = await loadCredentialsKey({ credentialsKey: 'ef'.repeat(32), dataDir })
    expect(loaded).toMatchObject({ source: 'environment', key: { id: credentialsKeyFrom('ef'.repeat(32)).id } })
  })
})

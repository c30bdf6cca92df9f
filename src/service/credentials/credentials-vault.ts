import {
  CREDENTIAL_DATA_SCHEMAS,
  CREDENTIAL_TYPES,
  type CreateCredentialRequest,
  type Credential,
  type CredentialDataByType,
  type CredentialType,
  SECRET_CREDENTIAL_FIELDS,
  type UpdateCredentialRequest,
} from '../../protocol/credentials'
import { readableIssues } from '../../protocol/index'
import { HttpError } from '../http/errors'
import { newId } from '../ids'
import type { CredentialRecord, CredentialsRepository } from '../store/credentials-repository'
import { type CredentialsKey, CredentialUnreadableError, open, seal } from './credentials-key'

/** A block names credentials its workspace does not have (or of another type). */
export class CredentialNotFoundError extends Error {
  constructor(id: string, type: CredentialType) {
    super(`No ${type} credentials with id "${id}" in this workspace`)
    this.name = 'CredentialNotFoundError'
  }
}

/**
 * Workspace credentials: sealed before they are stored, opened only for a block that uses them,
 * and shown to their owner only masked. Nothing here returns a secret field whole.
 */
export class CredentialsVault {
  constructor(
    private readonly repository: CredentialsRepository,
    private readonly key: CredentialsKey,
    private readonly now: () => Date,
  ) {}

  async create(workspaceId: string, request: CreateCredentialRequest): Promise<Credential> {
    const timestamp = this.now().toISOString()
    const record: CredentialRecord = {
      workspaceId,
      id: request.id ?? newId(),
      type: request.type,
      name: request.name ?? request.type,
      keyId: this.key.id,
      sealed: '',
      createdAt: timestamp,
      updatedAt: timestamp,
    }
    record.sealed = seal(this.key, JSON.stringify(request.data), sealContext(record))
    if (!(await this.repository.insert(record))) {
      throw new HttpError('conflict', `This workspace already has credentials with id "${record.id}".`)
    }
    return this.masked(record)
  }

  async list(workspaceId: string): Promise<Credential[]> {
    return (await this.repository.list(workspaceId)).map((record) => this.masked(record))
  }

  async get(workspaceId: string, id: string): Promise<Credential> {
    return this.masked(await this.found(workspaceId, id))
  }

  async update(workspaceId: string, id: string, request: UpdateCredentialRequest): Promise<Credential> {
    const record = await this.found(workspaceId, id)
    const type = record.type as CredentialType
    let sealed = record.sealed
    let keyId = record.keyId
    if (request.data !== undefined && request.data !== null) {
      const parsed = CREDENTIAL_DATA_SCHEMAS[type].safeParse(request.data)
      if (!parsed.success) {
        const issues = readableIssues(parsed.error).map((issue) => ({ ...issue, path: `data.${issue.path}`.replace(/\.$/, '') }))
        throw new HttpError('invalid_body', `The data does not match ${type} credentials.`, issues)
      }
      sealed = seal(this.key, JSON.stringify(parsed.data), sealContext(record))
      keyId = this.key.id
    }
    const changes = { name: request.name ?? record.name, keyId, sealed, updatedAt: this.now().toISOString() }
    if (!(await this.repository.update(workspaceId, id, changes))) throw notFound(id)
    return this.masked({ ...record, ...changes })
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(workspaceId, id))) throw notFound(id)
  }

  /**
   * The plain data for a block of this workspace. Throws `CredentialNotFoundError` or
   * `CredentialUnreadableError` (sealed with another key): the caller logs it, the flow goes on.
   */
  async use<T extends CredentialType>(workspaceId: string, id: string, type: T): Promise<CredentialDataByType[T]> {
    const record = await this.repository.find(workspaceId, id)
    if (!record || record.type !== type) throw new CredentialNotFoundError(id, type)
    const data = this.read(record)
    const parsed = CREDENTIAL_DATA_SCHEMAS[type].safeParse(data)
    if (!parsed.success) throw new CredentialUnreadableError(`The stored ${type} credentials "${id}" are incomplete`)
    return parsed.data as CredentialDataByType[T]
  }

  /** How many stored credentials this key cannot open (to warn about at start). */
  countUnreadable(): Promise<number> {
    return this.repository.countSealedWithOtherKeys(this.key.id)
  }

  private async found(workspaceId: string, id: string): Promise<CredentialRecord> {
    const record = await this.repository.find(workspaceId, id)
    if (!record) throw notFound(id)
    return record
  }

  private read(record: CredentialRecord): Record<string, unknown> {
    if (record.keyId !== this.key.id) {
      throw new CredentialUnreadableError(`Credentials "${record.id}" were encrypted with another key than this service's CREDENTIALS_KEY`)
    }
    return JSON.parse(open(this.key, record.sealed, sealContext(record))) as Record<string, unknown>
  }

  private masked(record: CredentialRecord): Credential {
    const base = { id: record.id, type: record.type, name: record.name, createdAt: record.createdAt, updatedAt: record.updatedAt }
    let data: Record<string, unknown>
    try {
      data = this.read(record)
    } catch (error) {
      if (!(error instanceof CredentialUnreadableError)) throw error
      return { ...base, data: {}, unreadable: true }
    }
    const secrets = isCredentialType(record.type) ? SECRET_CREDENTIAL_FIELDS[record.type] : Object.keys(data)
    for (const field of secrets) {
      if (typeof data[field] === 'string') data[field] = maskSecret(data[field])
    }
    return { ...base, data }
  }
}

/** `••••` and, for a long secret, its last four characters (enough to tell two keys apart). */
export function maskSecret(secret: string): string {
  return secret.length >= 16 ? `••••${secret.slice(-4)}` : '••••'
}

function isCredentialType(type: string): type is CredentialType {
  return (CREDENTIAL_TYPES as readonly string[]).includes(type)
}

/** Authenticated with the ciphertext: a sealed value copied to another row does not open. */
function sealContext(record: Pick<CredentialRecord, 'workspaceId' | 'id' | 'type'>): string {
  return JSON.stringify([record.workspaceId, record.id, record.type])
}

function notFound(id: string): HttpError {
  return new HttpError('not_found', `No credentials with id "${id}" in this workspace.`)
}

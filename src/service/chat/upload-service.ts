import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Block, PublishedFlow } from '../../protocol/index'
import {
  allowedTypes,
  type FileInputOptions,
  fileInputOptionsSchema,
  fileUrl,
  MAX_FILES_PER_INPUT,
  type UploadedFile,
  uploadLimitBytes,
} from '../../protocol/uploads'
import type { SessionState } from '../engine/core/types'
import { HttpError } from '../http/errors'
import { checkContent, checkDeclared, SNIFF_BYTES } from '../uploads/content-check'
import { safeFileName } from '../uploads/file-names'
import { storageKey } from '../uploads/file-storage'
import { type Files, newFileId } from '../uploads/files'
import { type Allowance, recordWithinQuotas, uploadAllowance } from '../uploads/upload-quotas'
import { awaitedInput } from './awaited-input'
import type { ChatDeps } from './chat-deps'
import type { SessionGate } from './chat-gate'
import { checkSession, sessionNotFound } from './session-check'

export interface UploadRequest {
  /** The `name` query parameter, unchecked. */
  name: string | undefined
  contentType: string
  contentLength: number | undefined
  body: ReadableStream<Uint8Array> | null
  /** Where the service is reached: the file's URL starts with it. */
  base: string
  /** The client's network (http/client-address.ts): its uploads not yet sent are counted together. */
  client: string
}

const tooBig = (limit: number) =>
  new HttpError('payload_too_large', `This input accepts files of at most ${limit} bytes.`, { limitBytes: limit })

/** The file input the session waits on, with its options: refused when it waits on anything else. */
async function pendingFileInput(
  deps: ChatDeps,
  state: SessionState,
  flow: PublishedFlow,
): Promise<{ block: Block; options: FileInputOptions }> {
  const block = await awaitedInput(deps, state, flow)
  if (block?.type !== 'file input')
    throw new HttpError('conflict', 'This chat is not waiting for a file: upload when the flow asks for one.')
  const parsed = fileInputOptionsSchema.safeParse(block.options ?? {})
  return { block, options: parsed.success ? parsed.data : {} }
}

/**
 * One file for the session's pending file input, streamed from the request to a temporary file
 * (counted as it comes: past the block's limit or the room the quotas leave, the request is cut
 * and refused), checked by name before and by content after, then handed to the storage and
 * recorded within the quotas (uploads/upload-quotas.ts). Whatever fails, nothing is left behind.
 */
export async function receiveUpload(
  deps: ChatDeps,
  files: Files,
  gate: SessionGate,
  request: UploadRequest,
  signal: AbortSignal,
): Promise<UploadedFile> {
  const { session, live } = gate
  if (!session) throw gate.notFound()
  checkSession(session, live.refusal, deps.now())
  const version = await deps.versions.get(session.publishedVersionId)
  if (!version) throw sessionNotFound(session.id)
  const { block, options } = await pendingFileInput(deps, session.state as SessionState, version.snapshot)

  if (request.name === undefined || request.name.length > 16_384) {
    throw new HttpError('invalid_query', 'Name the file in the `name` query parameter.', [{ path: 'name', message: 'Missing or too long' }])
  }
  const name = safeFileName(request.name)
  const types = allowedTypes(options)
  checkDeclared(types, { name, type: request.contentType })
  const limit = uploadLimitBytes(options, files.settings.maxBytes)
  if (request.contentLength !== undefined && request.contentLength > limit) throw tooBig(limit)
  if (!request.body) throw new HttpError('invalid_body', 'The body is the file: it is empty.')
  if ((await deps.store.uploads.idsFor(session.id, block.id)).length >= MAX_FILES_PER_INPUT) throw tooMany()

  await files.ready()
  const quotas = files.settings.quotas
  const workspaceId = session.workspaceId
  const scope = { sessionId: session.id, workspaceId, clientKey: request.client, now: deps.now() }
  const allowance = await uploadAllowance(deps.store, files.incoming, quotas, scope)
  const cap: Allowance = allowance.bytes < limit ? allowance : { bytes: limit, refusal: () => tooBig(limit) }
  if (cap.bytes <= 0 || (request.contentLength !== undefined && request.contentLength > cap.bytes)) throw cap.refusal()
  const temporary = join(files.incoming, newFileId())
  try {
    const { size, head } = await receive(request.body, temporary, cap, signal)
    if (size === 0) throw new HttpError('invalid_body', 'The body is the file: it is empty.')
    const type = await checkContent(head, types, { name, type: request.contentType })
    const ids = { workspaceId, resultId: session.resultId, fileId: newFileId() }
    const key = storageKey(ids)
    await files.storage.put(key, temporary, { size, type })
    const refused = await recordWithinQuotas(
      deps.store,
      {
        id: ids.fileId,
        workspaceId,
        resultId: session.resultId,
        sessionId: session.id,
        blockId: block.id,
        storageKey: key,
        name,
        type,
        size,
        private: options.visibility === 'Private',
        createdAt: scope.now.toISOString(),
        clientKey: request.client,
      },
      quotas,
      MAX_FILES_PER_INPUT,
      scope.now,
    )
    if (refused) {
      await files.storage.delete(key)
      throw refused === 'full' ? tooMany() : refused
    }
    return { url: fileUrl(request.base, ids.fileId, name), name, size, type }
  } finally {
    await rm(temporary, { force: true })
  }
}

const tooMany = () => new HttpError('conflict', `This input already has its most files (${MAX_FILES_PER_INPUT}).`)

/** Writes `body` to `path`, counting bytes against `cap` and keeping the first SNIFF_BYTES. */
async function receive(
  body: ReadableStream<Uint8Array>,
  path: string,
  cap: Allowance,
  signal: AbortSignal,
): Promise<{ size: number; head: Uint8Array }> {
  let size = 0
  const head: Buffer[] = []
  let headBytes = 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      if (size > cap.bytes) return done(cap.refusal())
      if (headBytes < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headBytes))
        headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes)
      }
      done(null, chunk)
    },
  })
  try {
    await pipeline(
      Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>),
      count,
      createWriteStream(path, { flags: 'wx' }),
      { signal },
    )
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError('invalid_body', 'The upload was cut off before the whole file arrived.')
  }
  return { size, head: Buffer.concat(head) }
}

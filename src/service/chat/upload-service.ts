import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Block, PublishedFlow } from '../../protocol/index'
import {
  allowedTypes,
  FILE_PATH_PREFIX,
  fileInputOptionsSchema,
  MAX_FILES_PER_INPUT,
  uploadLimitBytes,
  type FileInputOptions,
  type UploadedFile,
} from '../../protocol/uploads'
import type { ChatDeps } from './chat-deps'
import type { SessionGate } from './chat-gate'
import { checkSession, sessionNotFound } from './session-check'
import type { SessionState } from '../engine/core/types'
import { awaitedInput } from './awaited-input'
import { HttpError } from '../http/errors'
import { checkContent, checkDeclared, SNIFF_BYTES } from '../uploads/content-check'
import { storageKey } from '../uploads/file-storage'
import { type Files, newFileId } from '../uploads/files'
import { safeFileName } from '../uploads/file-names'

export interface UploadRequest {
  /** The `name` query parameter, unchecked. */
  name: string | undefined
  contentType: string
  contentLength: number | undefined
  body: ReadableStream<Uint8Array> | null
  /** Where the service is reached: the file's URL starts with it. */
  base: string
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
 * (counted as it comes: past the block's limit the request is cut and refused), checked by name
 * before and by content after, then handed to the storage and recorded. Whatever fails, nothing
 * is left behind.
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
  const temporary = join(files.incoming, newFileId())
  try {
    const { size, head } = await receive(request.body, temporary, limit, signal)
    if (size === 0) throw new HttpError('invalid_body', 'The body is the file: it is empty.')
    const type = await checkContent(head, types, { name, type: request.contentType })
    const ids = { workspaceId: session.workspaceId, resultId: session.resultId, fileId: newFileId() }
    const key = storageKey(ids)
    await files.storage.put(key, temporary, { size, type })
    const recorded = await deps.store.uploads.insert(
      {
        id: ids.fileId,
        workspaceId: ids.workspaceId,
        resultId: session.resultId,
        sessionId: session.id,
        blockId: block.id,
        storageKey: key,
        name,
        type,
        size,
        private: options.visibility === 'Private',
        createdAt: deps.now().toISOString(),
      },
      MAX_FILES_PER_INPUT,
    )
    if (!recorded) {
      await files.storage.delete(key)
      throw tooMany()
    }
    return { url: `${request.base}${FILE_PATH_PREFIX}${ids.fileId}/${encodeURIComponent(name)}`, name, size, type }
  } finally {
    await rm(temporary, { force: true })
  }
}

const tooMany = () => new HttpError('conflict', `This input already has its most files (${MAX_FILES_PER_INPUT}).`)

/** Writes `body` to `path`, counting bytes against `limit` and keeping the first SNIFF_BYTES. */
async function receive(
  body: ReadableStream<Uint8Array>,
  path: string,
  limit: number,
  signal: AbortSignal,
): Promise<{ size: number; head: Uint8Array }> {
  let size = 0
  const head: Buffer[] = []
  let headBytes = 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length
      if (size > limit) return done(tooBig(limit))
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

import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import type { z } from 'zod/mini'
import { readableIssues } from '../../protocol/index'
import { HttpError } from './errors'
import { findUnstorableValue, jsonDepthExceeds, MAX_JSON_DEPTH } from './json-guard'

/** How a route reads its body beyond the schema: the fields it takes, and what a missing body means. */
export interface BodyOptions {
  /** The top-level fields the operation accepts; any other is refused (see `parseBody`). */
  keys?: readonly string[]
  /** What an absent or empty body reads as (before the schema); without it one is refused. */
  absent?: unknown
  /** Reshapes the JSON before the schema reads it (an older flow file's envelope). */
  prepare?: (value: unknown) => unknown
}

/**
 * The one body reader: `read(c, schema, options)` reads the request's JSON defensively (media
 * type, size counted as read, encoding, nesting, storable strings) and parses it with the
 * contract's schema, refusing fields the operation does not take. A route makes one per body
 * limit (chat bodies are smaller than management ones) and reads where its handler needs it:
 * after its gate or its token, before it acts.
 */
export function bodyReader(limitBytes: number) {
  return async <S extends z.ZodMiniType>(c: Context, schema: S, options: BodyOptions = {}): Promise<z.output<S>> => {
    const optional = 'absent' in options
    const raw = await readJsonBody(c, { limitBytes, optional })
    const value = raw === undefined && optional ? options.absent : raw
    return parseBody(schema, options.prepare ? options.prepare(value) : value, options.keys)
  }
}

interface ReadJsonOptions {
  /** Most bytes accepted; counted on what is actually read, not on what Content-Length claims. */
  limitBytes: number
  /** An absent or empty body is allowed and reads as `undefined`. */
  optional?: boolean
}

/** Reads a JSON body defensively: media type, size, encoding, nesting and storable strings. */
async function readJsonBody(c: Context, options: ReadJsonOptions): Promise<unknown> {
  const contentType = c.req.header('content-type')
  if (contentType !== undefined && !isJsonMediaType(contentType)) throw unsupportedMediaType()

  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > options.limitBytes) throw payloadTooLarge(options.limitBytes)
  // Under the Node server, read the socket's request directly: going through the web `Request`
  // builds a fetch Request, an AbortSignal and a web stream per request for a few hundred bytes.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  const bytes = incoming ? await readIncoming(incoming, options.limitBytes) : await readLimited(c.req.raw, options.limitBytes)
  if (bytes.length === 0) {
    if (options.optional) return undefined
    throw new HttpError('invalid_body', 'The request body is empty; send a JSON object.')
  }
  // A body without a media type is refused too: it is probably a form post or a mistake.
  if (contentType === undefined) throw unsupportedMediaType()

  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new HttpError('invalid_body', 'The request body is not valid UTF-8.')
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new HttpError('invalid_body', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new HttpError('invalid_body', 'The request body is not valid JSON.', [
      { path: '', message: error instanceof Error ? error.message : 'Malformed JSON' },
    ])
  }
  const unstorable = findUnstorableValue(value)
  if (unstorable !== undefined) {
    throw new HttpError('invalid_body', 'The body contains a value that cannot be stored.', [unstorable])
  }
  return value
}

/**
 * Validates `value` against `schema`; `allowedKeys` additionally refuses unknown top-level fields
 * of the request envelope, so a misplaced field is reported instead of silently ignored.
 */
export function parseBody<S extends z.ZodMiniType>(schema: S, value: unknown, allowedKeys?: readonly string[]): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issues = readableIssues(result.error)
    throw new HttpError('invalid_body', 'The request body does not match the expected shape.', issues)
  }
  if (allowedKeys && value !== null && typeof value === 'object') {
    const unknown = Object.keys(value).filter((key) => !allowedKeys.includes(key))
    if (unknown.length > 0) {
      throw new HttpError(
        'invalid_body',
        'The request body has fields this operation does not accept.',
        unknown.slice(0, 20).map((key) => ({
          path: key,
          message: `Unknown field; expected only: ${allowedKeys.join(', ')}`,
        })),
      )
    }
  }
  return result.data
}

export function isJsonMediaType(contentType: string): boolean {
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return essence === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(essence)
}

function unsupportedMediaType(): HttpError {
  return new HttpError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.')
}

function payloadTooLarge(limitBytes: number): HttpError {
  return new HttpError('payload_too_large', `The request body is larger than ${limitBytes} bytes.`, {
    limitBytes,
  })
}

/** A Node request's body, read up to `limitBytes` (a 413 beyond). */
export function readIncoming(incoming: IncomingMessage, limitBytes: number): Promise<Uint8Array> {
  if (incoming.readableEnded) return Promise.resolve(new Uint8Array(0))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let total = 0
    const settle = (done: () => void) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError)
      done()
    }
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength
      if (total <= limitBytes) return void chunks.push(chunk)
      // Stop reading; the server discards the rest after the 413 is sent.
      incoming.pause()
      settle(() => reject(payloadTooLarge(limitBytes)))
    }
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, total)))
    const onError = () => settle(() => reject(new HttpError('invalid_body', 'The request body could not be read completely.')))
    incoming.on('data', onData).once('end', onEnd).once('error', onError).once('aborted', onError)
  })
}

async function readLimited(request: Request, limitBytes: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0)

  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > limitBytes) {
        await reader.cancel().catch(() => undefined)
        throw payloadTooLarge(limitBytes)
      }
      chunks.push(value)
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError('invalid_body', 'The request body could not be read completely.')
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

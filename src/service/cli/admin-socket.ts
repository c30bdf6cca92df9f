import { chmod, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { z } from 'zod/mini'
import { safeJson } from '../../protocol/api-client'
import { opt } from '../../protocol/common'
import { createCredentialRequestSchema } from '../../protocol/credentials'
import { ERROR_CODES, type ErrorCode, readableIssues } from '../../protocol/index'
import { createTokenRequestSchema } from '../../protocol/management'
import { deleteResultsRequestSchema, EXPORT_FORMATS } from '../../protocol/results'
import { readIncoming } from '../http/body'
import { HttpError } from '../http/errors'
import { log } from '../observability/log'
import { UsageError } from './args'
import type { FlowAdmin } from './flow-admin'

/**
 * The command line beside a service that holds the embedded database (which is one process's at a
 * time): that service answers the command line itself, on a socket in its data directory that only
 * its owner may open, the same people who may open the database. Each request is one call of
 * `FlowAdmin` (the database side, local-admin.ts, run by the service's process on its own store),
 * as JSON; a results export comes back as its bytes. service-admin.ts is the command line's side.
 */

/** The socket of a service on the embedded database in `dataDir`. */
export const adminSocketPath = (dataDir: string): string => resolve(dataDir, 'flow-service.sock')

/** A call: a method of `FlowAdmin` (credentials' as `credentials.list`, …) and its arguments, `null` for none. */
export interface AdminCall {
  call: string
  args: unknown[]
}

/** A refused call, as the command line shows it: its own usage errors and the API's errors alike. */
export interface AdminFailure {
  error: { kind: 'usage' | 'http' | 'internal'; message: string; code?: string; details?: unknown }
}

/** The failure an answer carries, as the error the database side would have thrown. */
export function failureError({ error }: AdminFailure): Error {
  if (error.kind === 'usage') return new UsageError(error.message)
  if (error.kind === 'http' && error.code && error.code in ERROR_CODES)
    return new HttpError(error.code as ErrorCode, error.message, error.details)
  return new Error(error.message)
}

const text = z.string()
const optionalText = opt(z.string())
const standing = z.enum(['archive', 'unarchive', 'unpublish'])
const exportRequest = z.object({
  format: z.enum(EXPORT_FORMATS),
  filters: z.object({ completed: z.optional(z.boolean()), from: z.optional(text), to: z.optional(text), text: z.optional(text) }),
})
const versionNumber = z.number().check(z.int(), z.positive())
const none = (value: string | null | undefined) => value ?? undefined

/** Every call the socket answers: its arguments, checked, and what it runs. */
const CALLS: Record<string, (admin: FlowAdmin, args: unknown[]) => Promise<unknown>> = {
  /** Whether a service answers here at all (a socket file may be one a stopped service left). */
  ping: async () => true,
  importFlow: (admin, args) => {
    const [file, workspace] = z.tuple([z.unknown(), optionalText]).parse(args)
    return admin.importFlow(file, none(workspace))
  },
  replaceFlow: (admin, args) => {
    const [ref, file] = z.tuple([text, z.unknown()]).parse(args)
    return admin.replaceFlow(ref, file)
  },
  publish: (admin, args) => {
    const [ref, note] = z.tuple([text, optionalText]).parse(args)
    return admin.publish(ref, none(note))
  },
  listVersions: (admin, args) => admin.listVersions(...z.tuple([text]).parse(args)),
  diffVersions: (admin, args) => admin.diffVersions(...z.tuple([text, versionNumber, versionNumber]).parse(args)),
  rollback: (admin, args) => {
    const [ref, number, note] = z.tuple([text, versionNumber, optionalText]).parse(args)
    return admin.rollback(ref, number, none(note))
  },
  changeStanding: (admin, args) => admin.changeStanding(...z.tuple([text, standing]).parse(args)),
  listFlows: (admin, args) => admin.listFlows(none(z.tuple([optionalText]).parse(args)[0])),
  exportResults: (admin, args) => admin.exportResults(...z.tuple([text, exportRequest]).parse(args)),
  deleteResults: (admin, args) => {
    const [ref, target] = z.tuple([text, deleteResultsRequestSchema]).parse(args)
    return admin.deleteResults(ref, target.all ? { all: true } : { resultIds: target.resultIds ?? [] })
  },
  listTokens: (admin, args) => admin.listTokens(none(z.tuple([optionalText]).parse(args)[0])),
  createToken: (admin, args) => {
    const [kind, label, workspace] = z.tuple([createTokenRequestSchema.shape.kind, optionalText, optionalText]).parse(args)
    return admin.createToken(kind, none(label), none(workspace))
  },
  revokeToken: (admin, args) => {
    const [id, workspace] = z.tuple([text, optionalText]).parse(args)
    return admin.revokeToken(id, none(workspace))
  },
  'credentials.list': async (admin, args) => (await admin.credentials(none(z.tuple([optionalText]).parse(args)[0]))).list(),
  'credentials.create': async (admin, args) => {
    const [workspace, request] = z.tuple([optionalText, createCredentialRequestSchema]).parse(args)
    return (await admin.credentials(none(workspace))).create(request)
  },
  'credentials.remove': async (admin, args) => {
    const [workspace, id] = z.tuple([optionalText, text]).parse(args)
    return (await admin.credentials(none(workspace))).remove(id)
  },
}

async function readCall(request: IncomingMessage, limitBytes: number): Promise<AdminCall> {
  const body = Buffer.from(await readIncoming(request, limitBytes)).toString('utf8')
  const parsed = z.object({ call: text, args: z.array(z.unknown()) }).safeParse(safeJson(body))
  if (!parsed.success) throw new UsageError('The command line sent a call this service does not read: is it the same version?')
  return parsed.data
}

function failure(error: unknown): { status: number; body: AdminFailure } {
  if (error instanceof UsageError) return { status: 400, body: { error: { kind: 'usage', message: error.message } } }
  if (error instanceof HttpError)
    return { status: error.status, body: { error: { kind: 'http', code: error.code, message: error.message, details: error.details } } }
  if (error instanceof z.core.$ZodError) {
    const details = readableIssues(error)
    return { status: 400, body: { error: { kind: 'http', code: 'invalid_body', message: 'The call is not valid.', details } } }
  }
  log().error({ err: error }, 'command line call failed')
  return { status: 500, body: { error: { kind: 'internal', message: error instanceof Error ? error.message : String(error) } } }
}

async function answer(admin: FlowAdmin, request: IncomingMessage, response: ServerResponse, limitBytes: number): Promise<void> {
  try {
    const { call, args } = await readCall(request, limitBytes)
    const run = Object.hasOwn(CALLS, call) ? CALLS[call] : undefined
    if (!run) throw new UsageError(`This service does not answer "${call}": is the command line the same version?`)
    const value = await run(admin, args)
    if (value instanceof ReadableStream) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' })
      await pipeline(Readable.fromWeb(value as WebReadableStream<Uint8Array>), response)
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value: value ?? null }))
  } catch (error) {
    if (response.headersSent) return void response.destroy(error instanceof Error ? error : undefined)
    const { status, body } = failure(error)
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
}

/**
 * Answers the command line on `path` until closed. A socket file already there is one a stopped
 * service left: this process holds the database's lock, so no other service is using it.
 */
export async function serveAdminSocket(input: { path: string; admin: FlowAdmin; limitBytes: number }): Promise<{ close(): Promise<void> }> {
  const { path, admin, limitBytes } = input
  await rm(path, { force: true })
  const server = createServer((request, response) => void answer(admin, request, response, limitBytes))
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(path, () => {
      server.off('error', fail)
      done()
    })
  })
  // A socket is opened by whoever may write it: the service's user alone (and root).
  await chmod(path, 0o600)
  return {
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}

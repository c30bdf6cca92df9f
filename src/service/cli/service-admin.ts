import { existsSync } from 'node:fs'
import { type IncomingMessage, request } from 'node:http'
import { Readable } from 'node:stream'
import { safeJson } from '../../protocol/api-client'
import { type AdminCall, type AdminFailure, failureError } from './admin-socket'
import type { FlowAdmin } from './flow-admin'

/**
 * The command line through the service running on the embedded database, on its socket
 * (admin-socket.ts): the same answers as on the database itself, every workspace included, while
 * the service keeps the database.
 */

function send(path: string, body: AdminCall): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath: path, method: 'POST', path: '/', headers: { 'content-type': 'application/json' } }, resolve)
    outgoing.once('error', reject)
    outgoing.end(JSON.stringify(body))
  })
}

async function textOf(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming as AsyncIterable<Buffer>) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The running service's admin on `path`, or undefined when no service answers there (none runs, or
 * one stopped without removing its socket).
 */
export async function serviceAdmin(path: string): Promise<FlowAdmin | undefined> {
  if (!existsSync(path)) return undefined
  // One call to learn whether a service answers: a refused connection is a socket left behind.
  const reached = await send(path, { call: 'ping', args: [] }).then(
    (answer) => {
      answer.resume()
      return answer.statusCode === 200
    },
    () => false,
  )
  if (!reached) return undefined

  async function answered(call: string, args: unknown[]): Promise<IncomingMessage> {
    const answer = await send(path, { call, args: args.map((arg) => arg ?? null) })
    if (answer.statusCode === 200) return answer
    const failure = safeJson(await textOf(answer)) as AdminFailure | undefined
    throw failure?.error ? failureError(failure) : new Error(`The service on ${path} answered ${answer.statusCode}`)
  }
  // biome-ignore lint/suspicious/noExplicitAny: each call's answer is the database side's, as JSON
  const value = async (call: string, ...args: unknown[]): Promise<any> =>
    (JSON.parse(await textOf(await answered(call, args))) as { value: unknown }).value

  return {
    where: 'the running service',
    importFlow: (file, workspace) => value('importFlow', file, workspace),
    replaceFlow: (ref, file) => value('replaceFlow', ref, file),
    publish: (ref, note) => value('publish', ref, note),
    listVersions: (ref) => value('listVersions', ref),
    diffVersions: (ref, from, to) => value('diffVersions', ref, from, to),
    rollback: (ref, number, note) => value('rollback', ref, number, note),
    changeStanding: (ref, change) => value('changeStanding', ref, change),
    listFlows: (workspace) => value('listFlows', workspace),
    exportResults: async (ref, exported) =>
      Readable.toWeb(await answered('exportResults', [ref, exported])) as unknown as ReadableStream<Uint8Array>,
    deleteResults: (ref, target) => value('deleteResults', ref, target),
    listTokens: (workspace) => value('listTokens', workspace),
    createToken: (kind, label, workspace) => value('createToken', kind, label, workspace),
    revokeToken: (id, workspace) => value('revokeToken', id, workspace),
    credentials: async (workspace) => ({
      list: () => value('credentials.list', workspace),
      create: (credential) => value('credentials.create', workspace, credential),
      remove: (id) => value('credentials.remove', workspace, id),
    }),
    close: async () => undefined,
  }
}

import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { uploadPath } from '../../../src/protocol/uploads'
import type { ServiceConfig } from '../../../src/service/config'
import type { TestDatabase } from '../helpers/database'
import { fileInputFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

/** A test service whose DATA_DIR is a fresh temporary folder (removed by `close`). */
export async function uploadService(db: TestDatabase, config: Partial<ServiceConfig> = {}): Promise<TestService & { dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'uploads-'))
  const svc = await createTestService(db, { config: { dataDir, ...config } })
  return {
    ...svc,
    dataDir,
    async close() {
      await svc.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A published flow asking for a file (`options` of its file input) and a started session. */
export async function sessionAtFileInput(svc: TestService, options: Record<string, unknown> = {}) {
  const flow = await importOverHttp(svc, fileInputFlow(options))
  await publishOverHttp(svc, flow.id)
  const started = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: {} })
  return {
    flowId: flow.id as string,
    sessionId: started.body.sessionId as string,
    resultId: started.body.resultId as string,
    input: started.body.input,
  }
}

export interface UploadOptions {
  name?: string | undefined
  type?: string
  /** The Content-Length header to send. */
  length?: number
  headers?: Record<string, string>
  /** Send the body as a stream of 64 KiB chunks (no length known in advance). */
  stream?: boolean
}

/** POSTs `body` as one upload, in process, at the address `svc.call` reaches too (file answers must name it). */
export async function upload(svc: TestService, sessionId: string, body: Buffer, options: UploadOptions = {}) {
  const query = options.name === undefined ? '' : `?name=${encodeURIComponent(options.name)}`
  const headers: Record<string, string> = { 'content-type': options.type ?? 'application/octet-stream', ...options.headers }
  if (options.length !== undefined) headers['content-length'] = String(options.length)
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, duplex: 'half' }
  init.body = options.stream ? chunked(body) : new Uint8Array(body)
  const response = await svc.app.request(new Request(`http://localhost${uploadPath(sessionId)}${query}`, init))
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}

function chunked(body: Buffer): ReadableStream<Uint8Array> {
  let offset = 0
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.length) return controller.close()
      controller.enqueue(new Uint8Array(body.subarray(offset, offset + 65_536)))
      offset += 65_536
    },
  })
}

/** GETs a file URL the service answered (in process), with optional headers. */
export async function fetchFile(svc: TestService, url: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url)
  const response = await svc.app.request(pathname + search, { headers })
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

/** Every file under `dir`, recursively (what an upload left on disk). */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
  } catch {
    return []
  }
}

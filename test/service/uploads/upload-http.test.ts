import { spawn } from 'node:child_process'
import { rm, truncate, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { uploadPath } from '../../../src/protocol/uploads'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { useTestDatabase } from '../helpers/database'
import type { TestService } from '../helpers/service'
import { filesUnder, sessionAtFileInput, uploadService } from './upload-helpers'

/** Uploads over a real HTTP connection (loopback): what a browser's cut-off or large upload does. */
const db = useTestDatabase()
let svc: TestService & { dataDir: string }
let server: Server
let origin: string
const MB = 1024 * 1024
const LARGE = 200 * MB

beforeEach(async () => {
  svc = await uploadService(db, {
    uploads: { ...DEFAULT_CONFIG.uploads, maxBytes: LARGE, quotas: { ...DEFAULT_CONFIG.uploads.quotas, sessionBytes: LARGE } },
  })
  server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: svc.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server)) as Server
  })
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve))
  await svc.close()
})

/** Resolves once `condition` holds, looking every 20 ms (the test's own timeout bounds the wait). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20))
}

const rows = () => svc.store.database.query(`SELECT id FROM ${svc.store.tables.uploads}`)

describe('an upload over HTTP', () => {
  it('cut off midway leaves nothing behind: no file, no record, no partial file', async () => {
    const { sessionId } = await sessionAtFileInput(svc, { sizeLimit: 50 })
    const port = (server.address() as AddressInfo).port
    const socket = connect(port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      `POST ${uploadPath(sessionId)}?name=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${10 * MB}\r\n\r\n`,
    )
    socket.write(Buffer.alloc(3 * MB, 7))
    // The partial file exists while the bytes arrive…
    await until(async () => (await filesUnder(svc.dataDir)).length === 1)
    socket.destroy()
    // …and is gone once the connection is.
    await until(async () => (await filesUnder(svc.dataDir)).length === 0)
    expect(await rows()).toEqual([])
  })

  it('refused before its bytes are read, is answered and its connection closed: the rest is not read to be thrown away', async () => {
    await new Promise((resolve) => server.close(resolve))
    await svc.close()
    // No room beyond the disk reserve: every upload is refused before it is read.
    svc = await uploadService(db, {
      uploads: { ...DEFAULT_CONFIG.uploads, quotas: { ...DEFAULT_CONFIG.uploads.quotas, reserveBytes: 2 ** 50 } },
    })
    server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: svc.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server)) as Server
    })
    const { sessionId } = await sessionAtFileInput(svc)
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    let answer = ''
    socket.on('data', (data: Buffer) => (answer += data.toString()))
    socket.on('error', () => undefined)
    const closed = new Promise((resolve) => socket.once('close', resolve))
    socket.write(
      `POST ${uploadPath(sessionId)}?name=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${9 * MB}\r\n\r\n`,
    )
    // The client goes on sending as fast as it can, as a flood would.
    const chunk = Buffer.alloc(MB, 7)
    for (let sent = 0; sent < 9 && !socket.destroyed && answer === ''; sent++) {
      if (!socket.write(chunk)) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 429 /)
    expect(answer.toLowerCase()).toContain('connection: close')
  })

  it(`streams a ${LARGE / MB} MB file to storage without holding it in memory`, async () => {
    const { sessionId } = await sessionAtFileInput(svc, { sizeLimit: LARGE / MB })
    // The client is curl, another process: only the service's memory is measured here.
    const path = join(svc.dataDir, 'large.bin')
    await writeFile(path, '')
    await truncate(path, LARGE)
    global.gc?.()
    const before = process.memoryUsage()
    let peak = before.rss
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    const curl = spawn('curl', [
      '-sS',
      '-X',
      'POST',
      '-H',
      'Content-Type: application/octet-stream',
      '-H',
      'Transfer-Encoding: chunked',
      '--data-binary',
      `@${path}`,
      `${origin}${uploadPath(sessionId)}?name=large.bin`,
    ])
    let out = ''
    curl.stdout.on('data', (data: Buffer) => (out += data.toString()))
    await new Promise((resolve) => curl.once('close', resolve))
    await rm(path)
    clearInterval(sample)
    expect(JSON.parse(out)).toMatchObject({ size: LARGE })
    const growth = peak - before.rss
    console.log(
      `[figure] uploading ${LARGE / MB} MB grew the test process's resident memory by at most ${(growth / MB).toFixed(1)} MB (the service's process; curl sends)`,
    )
    // Buffered whole, the file alone would add 200 MB.
    expect(growth).toBeLessThan(LARGE / 2)
  })
})

import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { DiskStorage } from '../../../src/service/uploads/disk-storage'
import { type FileStorage, storageKey } from '../../../src/service/uploads/file-storage'
import { S3Storage } from '../../../src/service/uploads/s3-storage'
import { PNG } from '../fixtures/upload-files'
import { useTestDatabase } from '../helpers/database'
import { startS3TestServer } from '../helpers/s3-test-server'
import { fetchFile, sessionAtFileInput, upload, uploadService } from './upload-helpers'

let scratch: string
let s3: Awaited<ReturnType<typeof startS3TestServer>>
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'storage-'))
  s3 = await startS3TestServer()
})
afterAll(async () => {
  await s3.close()
  await rm(scratch, { recursive: true, force: true })
})

/** A temporary file holding `content`, as an upload leaves it for the storage. */
async function incoming(content: string): Promise<string> {
  const path = join(scratch, `in-${Math.random().toString(36).slice(2)}`)
  await writeFile(path, content)
  return path
}

const storages: Array<[string, () => FileStorage]> = [
  ['local disk', () => new DiskStorage(join(scratch, 'disk'))],
  ['an S3-compatible server (s3rver)', () => new S3Storage(s3.settings)],
]

describe.each(storages)('file storage on %s', (_name, make) => {
  const key = (resultId: string, fileId: string) => storageKey({ workspaceId: 'ws', resultId, fileId })

  it('stores, reads back and deletes a file', async () => {
    const storage = make()
    await storage.put(key('r1', 'f1'), await incoming('hello'), { size: 5, type: 'text/plain' })
    expect(await text((await storage.open(key('r1', 'f1')))!)).toBe('hello')
    await storage.delete(key('r1', 'f1'))
    expect(await storage.open(key('r1', 'f1'))).toBeUndefined()
    await storage.delete(key('r1', 'f1')) // a missing file is fine
  })

  it("deletes one result's files, and only them", async () => {
    const storage = make()
    for (const [resultId, fileId] of [
      ['r2', 'a'],
      ['r2', 'b'],
      ['r3', 'c'],
    ] as const) {
      await storage.put(key(resultId, fileId), await incoming(fileId), { size: 1, type: 'text/plain' })
    }
    await storage.deleteResult('ws', 'r2')
    expect(await storage.open(key('r2', 'a'))).toBeUndefined()
    expect(await storage.open(key('r2', 'b'))).toBeUndefined()
    expect(await text((await storage.open(key('r3', 'c')))!)).toBe('c')
  })

  it('answers nothing for a key never stored', async () => {
    expect(await make().open(key('r9', 'none'))).toBeUndefined()
  })
})

describe('the service on an S3-compatible store', () => {
  const db = useTestDatabase()

  it('uploads go to the bucket, are served from it, and leave nothing on local disk', async () => {
    const svc = await uploadService(db, { uploads: { ...DEFAULT_CONFIG.uploads, maxBytes: 10 * 1024 * 1024, s3: s3.settings } })
    try {
      const { sessionId } = await sessionAtFileInput(svc)
      const uploaded = await upload(svc, sessionId, PNG, { name: 'a.png', type: 'image/png' })
      expect(uploaded.status).toBe(201)
      const served = await fetchFile(svc, uploaded.body.url)
      expect(served.bytes.equals(PNG)).toBe(true)
      expect(await readdir(join(svc.dataDir, 'uploads-incoming'))).toEqual([])
      expect(await readdir(svc.dataDir)).not.toContain('uploads')
    } finally {
      await svc.close()
    }
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { S3Settings } from '../../../src/service/uploads/s3-storage'

interface S3rverServer {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer

/**
 * A local S3-compatible server (s3rver, from the npm registry) on loopback, with one bucket;
 * `settings` point the service's S3 storage at it. Its objects live in a temporary folder.
 */
export async function startS3TestServer(bucket = 'uploads'): Promise<{ settings: S3Settings; close(): Promise<void> }> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket,
      // s3rver's own fixed credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: 'chat/',
    },
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { type FileStorage, resultPrefix } from './file-storage'

/** An S3-compatible store (AWS S3, MinIO, Garage, R2, …) as the operator configured it (S3_*). */
export interface S3Settings {
  endpoint: string | undefined
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** `bucket` in the path rather than the host name (most self-hosted stores need it). */
  forcePathStyle: boolean
  /** Prefix of every key in the bucket (a bucket shared with other data). */
  prefix: string
}

/** Files in an S3-compatible bucket; objects are private: the service serves them itself. */
export class S3Storage implements FileStorage {
  private readonly client: S3Client

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where S3 requires them: many S3-compatible stores do not read the SDK's
      // default aws-chunked bodies with trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    })
  }

  private keyOf(key: string): string {
    return this.settings.prefix + key
  }

  async put(key: string, path: string, meta: { size: number; type: string }): Promise<void> {
    // The file is on disk with a known length: streamed to the store, never held in memory.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.keyOf(key),
        Body: createReadStream(path),
        ContentLength: meta.size,
        ContentType: meta.type,
      }),
    )
  }

  async open(key: string): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }))
      return answer.Body instanceof Readable ? answer.Body : undefined
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined
      throw error
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.keyOf(key) }))
  }

  async deleteResult(workspaceId: string, resultId: string): Promise<void> {
    const Prefix = this.keyOf(resultPrefix(workspaceId, resultId))
    for (;;) {
      const listed = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix, MaxKeys: 1000 }))
      const keys = (listed.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []))
      if (keys.length === 0) return
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys, Quiet: true } }))
      if (!listed.IsTruncated) return
    }
  }

  close(): void {
    this.client.destroy()
  }
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PublishedVersions } from '../../../src/service/flows/published-versions'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

/** The real repository, counting the reads that reach the database. */
function countingRepository() {
  const reads: string[] = []
  return {
    reads,
    findVersionText: (id: string) => {
      reads.push(id)
      return svc.store.publishedFlows.findVersionText(id)
    },
  }
}

async function publishedVersionId(settings: Record<string, unknown> = {}) {
  const flow = await importOverHttp(svc, greetingFlow({ settings }))
  await publishOverHttp(svc, flow.id)
  return (await svc.store.publishedFlows.findCurrent(flow.id))!.versionId
}

describe('PublishedVersions', () => {
  it('reads and parses a version once, for every request and concurrent first read', async () => {
    const repository = countingRepository()
    const versions = new PublishedVersions(repository)
    const id = await publishedVersionId({ security: { allowedOrigins: ['https://shop.example'] } })
    const [a, b] = await Promise.all([versions.get(id), versions.get(id)])
    const c = await versions.get(id)
    expect(repository.reads).toEqual([id])
    expect(a).toBe(b)
    expect(c).toBe(a)
    expect(a?.allowedOrigins).toEqual(['https://shop.example'])
    expect(a?.snapshot.groups[0]?.blocks[1]?.type).toBe('text input')
  })

  it('hands out frozen snapshots, so no request can change what the next one runs', async () => {
    const version = await new PublishedVersions(svc.store.publishedFlows).get(await publishedVersionId())
    expect(() => {
      ;(version!.snapshot.groups[0]!.blocks[0] as { type: string }).type = 'changed'
    }).toThrow(TypeError)
  })

  it('keeps at most its limit of versions, least recently used out first', async () => {
    const repository = countingRepository()
    const versions = new PublishedVersions(repository, { maxEntries: 2, maxBytes: 1 << 30 })
    const [v1, v2, v3] = [await publishedVersionId(), await publishedVersionId(), await publishedVersionId()]
    await versions.get(v1)
    await versions.get(v2)
    await versions.get(v1)
    await versions.get(v3)
    expect(versions.size.entries).toBe(2)
    await versions.get(v1)
    await versions.get(v2)
    expect(repository.reads).toEqual([v1, v2, v3, v2])
  })

  it('keeps its stored size under the byte limit', async () => {
    const versions = new PublishedVersions(svc.store.publishedFlows, { maxEntries: 100, maxBytes: 3_000 })
    for (let i = 0; i < 4; i++) await versions.get(await publishedVersionId())
    expect(versions.size.bytes).toBeLessThanOrEqual(3_000)
    expect(versions.size.entries).toBeGreaterThanOrEqual(1)
  })

  it('has nothing for an unknown version', async () => {
    expect(await new PublishedVersions(svc.store.publishedFlows).get('no-such-version')).toBeUndefined()
  })
})

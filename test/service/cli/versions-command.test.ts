import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { apiAdmin } from '../../../src/service/cli/api-admin'
import { runFlowsCli } from '../../../src/service/cli/flows'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
let dir: string
let out: string[]
let err: string[]
beforeEach(async () => {
  svc = await createTestService(db)
  dir = await mkdtemp(join(tmpdir(), 'versions-cli-'))
  out = []
  err = []
})
afterEach(async () => {
  await svc.close()
  await rm(dir, { recursive: true, force: true })
})

const run = (...argv: string[]) =>
  runFlowsCli(argv, { store: svc.store, env: {}, now: svc.clock.now, io: { out: (l) => out.push(l), err: (l) => err.push(l) } })

async function flowFile(name: string, placeholder: string): Promise<string> {
  const flow = greetingFlow()
  flow.groups[1].blocks[0].options.labels.placeholder = placeholder
  const file = join(dir, name)
  await writeFile(file, JSON.stringify(flow))
  return file
}

describe('versions, diff and rollback on the command line', () => {
  it('lists versions with their notes, prints a diff in words, and rolls back as a new version', async () => {
    expect(await run('import', await flowFile('one.json', 'Your age'))).toBe(0)
    const [flow] = await svc.store.flows.listByWorkspace('demo')
    const id = flow!.id
    expect(await run('publish', id, '--note', 'First go')).toBe(0)
    expect(out.at(-1)).toMatch(new RegExp(`^Published ${id} \\(publicId .+\\) as version 1 at `))
    svc.clock.advance(1_000)
    expect(await run('update', id, await flowFile('two.json', 'How old are you?'), '--publish')).toBe(0)

    out = []
    expect(await run('diff', id, '1', '2')).toBe(0)
    expect(out).toEqual([
      'From version 1 to version 2: 1 change',
      `~ Block 'Age' (number input) in group 'Bye': placeholder changed from "Your age" to "How old are you?"`,
    ])

    out = []
    svc.clock.advance(1_000)
    expect(await run('rollback', id, '1')).toBe(0)
    expect(out[0]).toBe(`Published version 1 of ${id} again as version 3; it is also the flow's content now.`)

    out = []
    expect(await run('versions', flow!.publicId)).toBe(0)
    expect(out[0]).toBe('version\tpublished\tby\tlive\tnote')
    expect(
      out
        .slice(1)
        .map((line) => line.split('\t'))
        .map(([n, , by, live, note]) => [n, by, live, note]),
    ).toEqual([
      ['3', 'command line', 'yes', 'Rollback to version 1'],
      ['2', 'command line', '', ''],
      ['1', 'command line', '', 'First go'],
    ])
  })

  it('says what is wrong with a bad version number or an unknown version, with exit codes 2 and 1', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    expect(await run('diff', flow.id, '1', 'two')).toBe(2)
    expect(err.join('\n')).toContain('B must be a version number')
    err = []
    expect(await run('rollback', flow.id, '4')).toBe(1)
    expect(err.join('\n')).toContain(`Flow ${flow.id} has no version 4.`)
    expect(await run('versions', flow.id)).toBe(0)
    expect(out.at(-1)).toBe(`${flow.id} has never been published.`)
  })

  it('does the same through the API (FLOW_SERVICE_URL), signed with the token', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const admin = apiAdmin({
      url: 'http://service.test',
      token: svc.tokens.secret,
      fetch: (input, init) => Promise.resolve(svc.app.request(String(input), init)),
    })
    const published = await admin.publish(flow.id, 'Through the API')
    expect(published.version).toMatchObject({ number: 1, note: 'Through the API', isLive: true })
    svc.clock.advance(1_000)
    const rolled = await admin.rollback(flow.id, 1)
    expect(rolled.version).toMatchObject({ number: 2, restoredFrom: 1 })
    expect((await admin.listVersions(flow.id)).map((version) => version.number)).toEqual([2, 1])
    expect((await admin.diffVersions(flow.id, 1, 2)).changes).toEqual([])
  })
})

import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runFlowsCli } from '../../../src/service/cli/flows'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { credentialsKeyFrom } from '../../../src/service/credentials/credentials-key'
import { hashToken } from '../../../src/service/ids'
import { openStore, storeOptionsFrom } from '../../../src/service/store/open-store'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { createStore, type Store } from '../../../src/service/store/store'
import { databaseUrl, dropSchema, freshSchema, useTestDatabase } from '../helpers/database'
import { SHARED_FLOWS_DIR } from '../helpers/flows'

const db = useTestDatabase()
let store: Store
let schema: string
let out: string[]
let err: string[]
beforeEach(async () => {
  schema = freshSchema()
  store = await createStore(db.database, { schema, closeDatabase: false })
  out = []
  err = []
})
afterEach(async () => {
  await store.close()
  await dropSchema(db.database, schema)
})

const credentialsKey = credentialsKeyFrom('5a'.repeat(32))
const run = (...argv: string[]) =>
  runFlowsCli(argv, { store, credentialsKey, env: {}, io: { out: (l) => out.push(l), err: (l) => err.push(l) } })

describe('flows CLI', () => {
  it('imports and publishes a flow file, printing its id, publicId and published state', async () => {
    const code = await run('import', join(SHARED_FLOWS_DIR, 'tpl-nps.json'), '--publish')
    expect(code).toBe(0)
    const [flow] = await store.flows.listByWorkspace('demo')
    expect(flow).toBeDefined()
    const published = await store.publishedFlows.findCurrent(flow!.id)
    const text = out.join('\n')
    expect(text).toContain('Imported "NPS Survey" into workspace demo')
    expect(text).toContain(`id:        ${flow!.id}`)
    expect(text).toContain(`publicId:  ${flow!.publicId}`)
    expect(text).toContain(`published: yes (${published!.publishedAt})`)
  })

  it('imports without publishing into another workspace, then publishes by publicId', async () => {
    expect(await run('import', join(SHARED_FLOWS_DIR, 'tpl-lead-scoring.json'), '--workspace', 'acme')).toBe(0)
    const [flow] = await store.flows.listByWorkspace('acme')
    expect(out.join('\n')).toContain('published: no')
    expect(await store.publishedFlows.findCurrent(flow!.id)).toBeUndefined()

    out = []
    expect(await run('publish', flow!.publicId)).toBe(0)
    expect(out.join('\n')).toContain(`Published ${flow!.id}`)
    expect(await store.publishedFlows.findCurrent(flow!.id)).toBeDefined()

    out = []
    expect(await run('list')).toBe(0)
    expect(out[1]).toContain(flow!.publicId)
    expect(out[1]).toContain('Lead Scoring')
  })

  it('archives a flow and brings it back', async () => {
    expect(await run('import', join(SHARED_FLOWS_DIR, 'tpl-nps.json'), '--publish')).toBe(0)
    const [flow] = await store.flows.listByWorkspace('demo')
    out = []
    expect(await run('archive', flow!.publicId)).toBe(0)
    expect(out.join('\n')).toContain(`Archived ${flow!.id}`)
    expect((await store.flows.findById(flow!.id))?.isArchived).toBe(true)
    expect(await run('unarchive', flow!.id)).toBe(0)
    expect((await store.flows.findById(flow!.id))?.isArchived).toBe(false)
    expect(await run('archive', 'no-such-flow')).toBe(1)
  })

  it('creates a token, prints it once and stores only its hash', async () => {
    expect(await run('token', 'create', '--kind', 'publishable', '--workspace', 'acme')).toBe(0)
    const token = out.find((line) => line.startsWith('fs_pk_'))
    expect(token).toMatch(/^fs_pk_[A-Za-z0-9_-]{43}$/)
    const record = await store.tokens.findByHash(hashToken(token!))
    expect(record).toMatchObject({ workspaceId: 'acme', kind: 'publishable' })
    const rows = await store.database.query(`SELECT * FROM ${store.tables.apiTokens}`)
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  it('adds, lists (masked) and removes credentials, encrypted with the service key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flows-cli-'))
    try {
      const file = join(dir, 'smtp.json')
      const data = {
        host: 'mail.example.com',
        port: 465,
        isTlsEnabled: true,
        username: 'u',
        password: 'p4ssw0rd-from-file',
        from: { email: 'bot@example.com' },
      }
      await writeFile(file, JSON.stringify(data))
      expect(await run('credentials', 'add', '--type', 'smtp', '--id', 'mail', '--data-file', file, '--workspace', 'acme')).toBe(0)
      expect(
        await run('credentials', 'add', '--type', 'openai', '--data', '{"apiKey":"sk-inline-0123456789abcd"}', '--workspace', 'acme'),
      ).toBe(0)
      out = []
      expect(await run('credentials', 'list', '--workspace', 'acme')).toBe(0)
      const listed = out.join('\n')
      expect(listed).toContain('mail\tsmtp')
      expect(listed).toContain('"password":"••••file"')
      expect(listed).toContain('"apiKey":"••••abcd"')
      expect(listed).not.toContain('p4ssw0rd')
      const rows = await store.database.query(`SELECT * FROM ${store.tables.credentials}`)
      expect(JSON.stringify(rows)).not.toContain('p4ssw0rd-from-file')
      expect(JSON.stringify(rows)).not.toContain('sk-inline')
      expect(await run('credentials', 'remove', 'mail', '--workspace', 'acme')).toBe(0)
      expect(await store.credentials.find('acme', 'mail')).toBeUndefined()

      expect(await run('credentials', 'add', '--type', 'smtp', '--data', '{"host":"h"}')).toBe(1)
      expect(err.join('\n')).toContain('data.port')
      expect(await run('credentials', 'add', '--type', 'smtp')).toBe(2)
      expect(await run('credentials', 'remove', 'missing')).toBe(1)
      expect(await run('credentials', 'rotate')).toBe(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('explains usage mistakes with exit code 2', async () => {
    expect(await run()).toBe(2)
    expect(await run('export')).toBe(2)
    expect(err.join('\n')).toContain('Unknown command "export"')
    expect(await run('token', 'create')).toBe(2)
    expect(await run('token', 'create', '--kind', 'admin')).toBe(2)
    expect(await run('import')).toBe(2)
    expect(await run('list', '--verbose', 'x')).toBe(2)
  })

  it('reads a relative file from where the user ran `npm run flows` (npm runs scripts in the project folder)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flows-cli-'))
    const before = process.env.INIT_CWD
    try {
      await writeFile(
        join(dir, 'mine.json'),
        JSON.stringify({ version: '6', name: 'Mine', events: [], groups: [], edges: [], variables: [] }),
      )
      process.env.INIT_CWD = dir
      expect(await run('import', 'mine.json')).toBe(0)
      expect(out.join('\n')).toContain('Imported "Mine" into workspace demo')
    } finally {
      if (before === undefined) delete process.env.INIT_CWD
      else process.env.INIT_CWD = before
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('reports unreadable and invalid files with exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flows-cli-'))
    try {
      expect(await run('import', join(dir, 'missing.json'))).toBe(1)
      expect(err.join('\n')).toContain('ENOENT')
      await writeFile(join(dir, 'broken.json'), '{"name": ')
      expect(await run('import', join(dir, 'broken.json'))).toBe(1)
      expect(err.join('\n')).toContain('is not valid JSON')
      await writeFile(join(dir, 'wrong.json'), JSON.stringify({ name: 'x', groups: 'nope' }))
      expect(await run('import', join(dir, 'wrong.json'))).toBe(1)
      expect(err.join('\n')).toContain('groups')
      expect(await store.flows.listByWorkspace()).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('flows CLI on the database: managing a flow and its tokens', () => {
  const written: Uint8Array[] = []
  const runWriting = (...argv: string[]) =>
    runFlowsCli(argv, {
      store,
      credentialsKey,
      env: {},
      io: { out: (l) => out.push(l), err: (l) => err.push(l), write: async (chunk) => void written.push(chunk) },
    })

  it('updates a flow from a file keeping its ids, unpublishes it, and exports its results', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flows-cli-'))
    try {
      expect(await runWriting('import', join(SHARED_FLOWS_DIR, 'tpl-nps.json'), '--publish')).toBe(0)
      const [flow] = await store.flows.listByWorkspace('demo')
      const first = await store.publishedFlows.findCurrent(flow!.id)
      const file = join(dir, 'edited.json')
      await writeFile(
        file,
        JSON.stringify({ ...JSON.parse(await readFile(join(SHARED_FLOWS_DIR, 'tpl-nps.json'), 'utf8')), name: 'NPS, edited' }),
      )
      out = []
      expect(await runWriting('update', flow!.publicId, file)).toBe(0)
      expect(out.join('\n')).toContain(`publicId:  ${flow!.publicId}`)
      const updated = await store.flows.findById(flow!.id)
      expect(updated).toMatchObject({ publicId: flow!.publicId, content: expect.objectContaining({ name: 'NPS, edited' }) })
      // Not published yet: visitors still get the first version.
      expect((await store.publishedFlows.findCurrent(flow!.id))?.versionId).toBe(first!.versionId)
      expect(await runWriting('publish', flow!.id)).toBe(0)
      const second = await store.publishedFlows.findCurrent(flow!.id)
      expect(second?.snapshot.flowId).toBe(flow!.id)
      expect(second?.versionId).not.toBe(first!.versionId)

      await writeFile(join(dir, 'not-a-flow.json'), JSON.stringify({ name: 'x', groups: 'nope' }))
      expect(await runWriting('update', flow!.id, join(dir, 'not-a-flow.json'))).toBe(1)
      expect(err.join('\n')).toContain('not-a-flow.json is not a flow export')
      expect(await runWriting('update', 'no-such-flow', file)).toBe(1)

      expect(await runWriting('unpublish', flow!.id)).toBe(0)
      expect(await store.publishedFlows.findCurrent(flow!.id)).toBeUndefined()
      out = []
      expect(await runWriting('list')).toBe(0)
      expect(out[0]).toBe('id\tpublicId\tworkspace\tpublished\tclosed\tarchived\tresults\tcompleted\tname')
      expect(out[1]).toBe([flow!.id, flow!.publicId, 'demo', 'no', 'no', 'no', '0', '0', 'NPS, edited'].join('\t'))

      expect(await runWriting('results', flow!.id, '--jsonl')).toBe(0)
      expect(Buffer.concat(written).toString()).toBe('')
      expect(await runWriting('results', flow!.id)).toBe(0)
      expect(Buffer.concat(written).toString('utf8')).toMatch(/^\uFEFFResult id,Created at,Updated at,Completed/)
      expect(await runWriting('results', flow!.id, '--csv', '--jsonl')).toBe(2)
      expect(await runWriting('results', flow!.id, '--completed', 'maybe')).toBe(1)
      out = []
      expect(await runWriting('results', flow!.id, '--delete-all')).toBe(0)
      expect(out.join('\n')).toContain(`Deleted 0 results of ${flow!.id}`)
      expect(await runWriting('results', flow!.id, '--delete', 'no-such-result')).toBe(0)
      expect(await runWriting('results', flow!.id, '--delete-all', '--csv')).toBe(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('lists tokens without their secret and revokes one', async () => {
    expect(await runWriting('token', 'create', '--kind', 'secret', '--workspace', 'acme', '--label', 'deploys')).toBe(0)
    const token = out.find((line) => line.startsWith('fs_sk_'))!
    out = []
    expect(await runWriting('token', 'list', '--workspace', 'acme')).toBe(0)
    expect(out.join('\n')).not.toContain(token)
    const [id, kind, hint] = out[1]!.split('\t')
    expect([kind, hint]).toEqual(['secret', `…${token.slice(-4)}`])
    expect(await runWriting('token', 'revoke', id!)).toBe(1) // not a token of the demo workspace
    expect(await runWriting('token', 'revoke', id!, '--workspace', 'acme')).toBe(0)
    expect(await store.tokens.findByHash(hashToken(token))).toBeUndefined()
    out = []
    expect(await runWriting('token', 'list', '--workspace', 'acme')).toBe(0)
    expect(out).toEqual(['No tokens.'])
  })
})

describe('the command line (the real entry point)', () => {
  it('runs `token create` against the configured database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'flows-cli-run-'))
    const spawnSchema = freshSchema()
    try {
      // The database the service made (the command line makes none: cli-database.test.ts).
      const config = { ...DEFAULT_CONFIG, dataDir, databaseUrl, databaseSchema: spawnSchema }
      await (await openStore(storeOptionsFrom(config))).close()
      const { stdout } = await promisify(execFile)('npx', ['tsx', 'src/service/cli/flows.ts', 'token', 'create', '--kind', 'secret'], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_SCHEMA: spawnSchema },
        cwd: process.cwd(),
      })
      expect(stdout).toMatch(/^fs_sk_[A-Za-z0-9_-]{43}$/m)
      expect(stdout).toContain('shown only this once')
    } finally {
      if (databaseUrl) {
        const pg = openPgDatabase(databaseUrl)
        await dropSchema(pg, spawnSchema)
        await pg.close()
      }
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})

import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../../src/service/ids'
import { greetingFlow } from '../helpers/flows'
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process'

/**
 * The command line beside a running service that holds its embedded database: the service in a
 * child process of its own, the command line in others, with FLOW_SERVICE_URL and
 * FLOW_SECRET_TOKEN (through the API), or with the same DATA_DIR alone (the service answers it on
 * its socket, every workspace included).
 */

const CLI = join(import.meta.dirname, '../../../src/service/cli/flows.ts')
const secret = newToken('secret')
let dir: string
let service: ServiceProcess

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flows-cli-beside-'))
  // Only PATH is inherited: no DATABASE_URL, so the embedded database under DATA_DIR.
  const env = { DATA_DIR: join(dir, 'data'), FLOW_SECRET_TOKEN: secret, WORKERS: '1' }
  service = await startServiceProcess(env)
}, 60_000)
afterAll(async () => {
  await service?.stop()
  await rm(dir, { recursive: true, force: true })
})

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** The command line as a user runs it in another terminal, on the same machine and DATA_DIR. */
function cli(args: string[], env: Record<string, string> = { FLOW_SERVICE_URL: service.url, FLOW_SECRET_TOKEN: secret }): Promise<Run> {
  const { DATABASE_URL: _ignored, FLOW_SERVICE_URL: _url, FLOW_SECRET_TOKEN: _token, ...inherited } = process.env
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { env: { ...inherited, DATA_DIR: join(dir, 'data'), INIT_CWD: dir, ...env }, encoding: 'buffer', maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: stdout.toString('utf8'), stderr: stderr.toString('utf8') }),
    )
  })
}

const flowFile = async (name: string, greeting: string) => {
  const flow = greetingFlow()
  flow.groups[0].blocks[0].content.richText[0].children[0].text = greeting
  await writeFile(join(dir, name), JSON.stringify(flow))
  return name
}

async function api(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}
const firstMessage = (started: { body: any }) => started.body.messages[0].content.richText[0].children[0].text as string

describe('the command line beside a running service (FLOW_SERVICE_URL)', () => {
  it('imports, updates keeping the ids, publishes, lists, exports, and unpublishes through the API', async () => {
    const imported = await cli(['import', await flowFile('v1.json', 'Hello from the first file!'), '--publish'])
    expect(imported.code, imported.stderr).toBe(0)
    const id = /id:\s+(\S+)/.exec(imported.stdout)![1]!
    const publicId = /publicId:\s+(\S+)/.exec(imported.stdout)![1]!
    expect(imported.stdout).toContain('published: yes')
    expect(firstMessage(await api('POST', `/v1/flows/${publicId}/startChat`, undefined, {}))).toBe('Hello from the first file!')

    // A visitor answers, so the export has a row.
    const started = await api('POST', `/v1/flows/${publicId}/startChat`, undefined, {})
    await api('POST', `/v1/sessions/${started.body.sessionId}/continueChat`, undefined, { message: '=Ada' })
    await api('POST', `/v1/sessions/${started.body.sessionId}/continueChat`, undefined, { message: '36' })

    const updated = await cli(['update', publicId, await flowFile('v2.json', 'Hello from the second file!'), '--publish'])
    expect(updated.code, updated.stderr).toBe(0)
    expect(updated.stdout).toContain(`id:        ${id}`)
    expect(updated.stdout).toContain(`publicId:  ${publicId}`)
    expect(firstMessage(await api('POST', `/v1/flows/${publicId}/startChat`, undefined, {}))).toBe('Hello from the second file!')

    const listed = await cli(['list'])
    expect(listed.code, listed.stderr).toBe(0)
    const row = listed.stdout
      .split('\n')
      .find((line) => line.startsWith(id))!
      .split('\t')
    expect(row.slice(1, 3)).toEqual([publicId, 'demo'])
    expect(row.slice(6)).toEqual(['3', '1', 'Greeting'])

    const csv = await cli(['results', publicId, '--csv', '--completed', 'true'])
    expect(csv.code, csv.stderr).toBe(0)
    expect(csv.stdout.startsWith('\uFEFFResult id,Created at,Updated at,Completed,Version,User id,Name,')).toBe(true)
    expect(csv.stdout.trim().split('\r\n')).toHaveLength(2)
    // Completed, its version, no user id (an anonymous visitor), then the answers.
    expect(csv.stdout).toMatch(/,yes,[0-9]+,,'=Ada,36/)

    // Deleting results: one by its id (the export's first column), then the rest.
    const completedId = csv.stdout.trim().split('\r\n')[1]!.split(',')[0]!
    const deletedOne = await cli(['results', publicId, '--delete', completedId])
    expect(deletedOne.code, deletedOne.stderr).toBe(0)
    expect(deletedOne.stdout).toContain('Deleted 1 result of')
    const resultsOf = async () =>
      (await cli(['list'])).stdout
        .split('\n')
        .find((line) => line.startsWith(id))!
        .split('\t')
        .slice(6, 8)
    expect(await resultsOf()).toEqual(['2', '0'])
    const deletedAll = await cli(['results', publicId, '--delete-all'])
    expect(deletedAll.code, deletedAll.stderr).toBe(0)
    expect(deletedAll.stdout).toContain('Deleted 2 results of')
    expect(await resultsOf()).toEqual(['0', '0'])
    expect((await cli(['results', publicId, '--delete', completedId, '--delete-all'])).code).toBe(2)

    const notAFlow = await cli(['update', id, await writeFile(join(dir, 'bad.json'), '{"name": 5}').then(() => 'bad.json')])
    expect(notAFlow.code).toBe(1)
    expect(notAFlow.stderr).toContain('bad.json is not a flow export')

    const unpublished = await cli(['unpublish', id])
    expect(unpublished.code, unpublished.stderr).toBe(0)
    expect((await api('POST', `/v1/flows/${publicId}/startChat`, undefined, {})).body.error.code).toBe('not_published')
    expect((await cli(['archive', publicId])).code).toBe(0)
    expect((await api('GET', `/v1/flows/${id}`, secret)).body.flow.isArchived).toBe(true)
  }, 120_000)

  it('creates a token shown once, lists tokens without their secret, and revokes one at once', async () => {
    const created = await cli(['token', 'create', '--kind', 'secret', '--label', 'deploys'])
    expect(created.code, created.stderr).toBe(0)
    const value = created.stdout.split('\n').find((line) => line.startsWith('fs_sk_'))!
    expect((await api('GET', '/v1/flows', value)).status).toBe(200)

    const listed = await cli(['token', 'list'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).not.toContain(value)
    expect(listed.stdout).not.toContain(secret)
    const line = listed.stdout.split('\n').find((candidate) => candidate.endsWith('\tdeploys'))!
    expect(line).toContain(`…${value.slice(-4)}`)

    const revoked = await cli(['token', 'revoke', line.split('\t')[0]!])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect((await api('GET', '/v1/flows', value)).body.error.code).toBe('unauthorized')
    // The revoked token no longer drives the command line either.
    const refused = await cli(['list'], { FLOW_SERVICE_URL: service.url, FLOW_SECRET_TOKEN: value })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('Unknown or revoked token')
  }, 60_000)

  it('without FLOW_SERVICE_URL, is answered by the service holding the embedded database, in any workspace', async () => {
    // The first `docker run`: no token yet, the database the service's. What the service prints works.
    const created = await cli(['token', 'create', '--kind', 'secret', '--workspace', 'shop', '--label', 'first'], {})
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain('for workspace shop')
    const value = created.stdout.split('\n').find((line) => line.startsWith('fs_sk_'))!
    const flows = await api('GET', '/v1/flows', value)
    expect(flows.status).toBe(200)
    expect(flows.body.flows).toEqual([])

    const imported = await cli(['import', await flowFile('shop.json', 'Hello, shop!'), '--publish', '--workspace', 'shop'], {})
    expect(imported.code, imported.stderr).toBe(0)
    const publicId = /publicId:\s+(\S+)/.exec(imported.stdout)![1]!
    expect(firstMessage(await api('POST', `/v1/flows/${publicId}/startChat`, undefined, {}))).toBe('Hello, shop!')
    const listed = await cli(['list', '--workspace', 'shop'], {})
    expect(listed.stdout.split('\n')[1]!.split('\t').slice(1, 3)).toEqual([publicId, 'shop'])
    // A results export streams through the service's socket.
    const csv = await cli(['results', publicId, '--csv'], {})
    expect(csv.code, csv.stderr).toBe(0)
    expect(csv.stdout.startsWith('\uFEFFResult id,Created at')).toBe(true)

    // Its errors read as on the database itself: the API's, and the command line's own.
    const missing = await cli(['publish', 'no-such-flow'], {})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No flow with id or publicId "no-such-flow"')
    const badWorkspace = await cli(['token', 'list', '--workspace', 'not a workspace'], {})
    expect(badWorkspace.code).toBe(2)
    expect(badWorkspace.stderr).toContain('--workspace must be')
    expect((await cli(['list', '--workspace', 'demo'])).stderr).toContain('--workspace does not go with FLOW_SERVICE_URL')
  }, 60_000)
})

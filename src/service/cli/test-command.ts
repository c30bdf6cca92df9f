import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { z } from 'zod/mini'
import { type FlowTests, type FlowTestsResponse, flowTestsSchema } from '../../protocol/flow-tests'
import { importFlowSchema } from '../../protocol/index'
import { createEngine } from '../engine/index'
import { testStoredFlow } from '../flow-tests/flow-tests-service'
import { failureLine } from '../flow-tests/run-flow-tests'
import { migrateToV6 } from '../flows/flow-migration'
import { importFlow } from '../flows/flow-service'
import { PublishedVersions } from '../flows/published-versions'
import { parseBody } from '../http/body'
import { HttpError } from '../http/errors'
import { openStore } from '../store/open-store'
import type { Store } from '../store/store'
import { assertKnownOptions, type ParsedArgs, UsageError } from './args'
import { readJsonFile } from './commands'

/**
 * `test FLOW.json SCENARIOS.json [--json]`: plays the scenarios against the flow file, in this
 * process, on an embedded database of its own (made in a temporary folder, deleted after), with
 * HTTP, AI and e-mail answered by a loopback stub server. Exit code 0 when every scenario passes,
 * 1 when one fails, 2 when a file cannot be read or is not what it should be.
 */

export const TEST_USAGE = `  test FLOW.json SCENARIOS.json [--json]   play the scenarios against the flow (stubbed HTTP, AI and e-mail),
                                              on a database of its own; exit code 0: all passed, 1: one failed`

/** The workspace the flow is imported into, in the run's own database. */
const TEST_WORKSPACE = 'flow-test'

/** A file that is not what the command needs: exit code 2, the reason and nothing else. */
export class BadInputError extends Error {}

export async function testCommand(input: {
  args: ParsedArgs
  rest: string[]
  out: (line: string) => void
  /** An open store to import into (tests); by default a temporary embedded database. */
  store?: Store
}): Promise<number> {
  const { args, rest, out } = input
  assertKnownOptions(args, ['json'])
  const [flowFile, scenariosFile] = rest
  if (flowFile === undefined || scenariosFile === undefined || rest.length > 2) {
    throw new UsageError('test takes a FLOW file and a SCENARIOS file')
  }
  const flow = parseFile(flowFile, importFlowSchema, await readInput(flowFile), 'a flow export', migrateToV6)
  const tests = parseFile(scenariosFile, flowTestsSchema, await readInput(scenariosFile), 'a scenarios file')

  const report = await withStore(input.store, (store) => run(store, flow, tests))
  if (args.options.has('json')) out(JSON.stringify(report, null, 2))
  else printReport(report, out)
  return report.passed ? 0 : 1
}

async function run(store: Store, file: z.infer<typeof importFlowSchema>, tests: FlowTests): Promise<FlowTestsResponse> {
  const now = () => new Date()
  await store.workspaces.ensure(TEST_WORKSPACE, TEST_WORKSPACE, now())
  const record = await importFlow(store, { workspaceId: TEST_WORKSPACE, flow: file, now: now() })
  return testStoredFlow({ store, engine: createEngine(), versions: new PublishedVersions(store.publishedFlows), now }, record, tests)
}

async function withStore<T>(given: Store | undefined, use: (store: Store) => Promise<T>): Promise<T> {
  if (given) return use(given)
  const folder = await mkdtemp(join(tmpdir(), 'flow-test-'))
  try {
    const store = await openStore({ dataDir: folder })
    try {
      return await use(store)
    } finally {
      await store.close()
    }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

function printReport(report: FlowTestsResponse, out: (line: string) => void) {
  for (const scenario of report.scenarios) {
    out(`${scenario.passed ? 'PASS' : 'FAIL'}  ${scenario.name} (${scenario.durationMs} ms)`)
    for (const failure of scenario.failures) out(`      ${failureLine(failure)}`)
  }
  const failed = report.scenarios.filter((scenario) => !scenario.passed).length
  const count = report.scenarios.length
  out('')
  out(`${count} scenario${count === 1 ? '' : 's'}: ${count - failed} passed, ${failed} failed`)
}

async function readInput(file: string): Promise<unknown> {
  try {
    return await readJsonFile(file)
  } catch (error) {
    throw new BadInputError((error as Error).message)
  }
}

/** The file read by its schema; what is wrong in it, one line a problem, as the import's errors say it. */
function parseFile<S extends z.ZodMiniType>(
  file: string,
  schema: S,
  json: unknown,
  what: string,
  prepare: (json: unknown) => unknown = (json) => json,
): z.output<S> {
  try {
    return parseBody(schema, prepare(json)) as z.output<S>
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    const issues = Array.isArray(error.details) ? (error.details as Array<{ path: string; message: string }>) : []
    const lines = issues.slice(0, 20).map((issue) => `  ${issue.path || '(root)'}: ${issue.message}`)
    throw new BadInputError([`${file} is not ${what}:`, ...lines].join('\n'))
  }
}

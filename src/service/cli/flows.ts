import { readFile } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import { importFlowSchema, readableIssues } from '../../protocol/index'
import { loadConfig } from '../config'
import { DEMO_WORKSPACE_ID } from '../env-tokens'
import { toFlow } from '../flows/flow-document'
import { migrateToV6 } from '../flows/flow-migration'
import { importFlow, publishFlow } from '../flows/flow-service'
import { HttpError } from '../http/errors'
import { hashToken, newId, newToken, type TokenKind } from '../ids'
import { openStore, storeOptionsFrom } from '../store/open-store'
import type { FlowRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import type { CredentialsKey } from '../credentials/credentials-key'
import { assertKnownOptions, parseArgs, stringOption, UsageError, userPath, type ParsedArgs } from './args'
import { CREDENTIALS_USAGE, credentialsCommand } from './credentials-command'

/**
 * `npm run flows -- <command>`: manage flows and tokens directly in the service's database
 * (same configuration as the service), for seeding and operating without HTTP calls.
 */

export const USAGE = `Usage: npm run flows -- <command>

  import FILE [--publish] [--workspace ID]   import a flow export (JSON); prints its id and publicId
  publish FLOW                                publish a flow (id or publicId)
  archive FLOW | unarchive FLOW               take a flow out of service (no chats, no share page) or back
  token create --kind secret|publishable [--workspace ID] [--label TEXT]
                                              create an API token; it is printed once, store it now
  list [--workspace ID]                       list flows
${CREDENTIALS_USAGE}

The workspace defaults to "${DEMO_WORKSPACE_ID}" and is created when missing.
Database: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded, default ./.data), DATABASE_SCHEMA.`

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
}

export interface CliOptions {
  io?: CliIo
  /** An open store to use (tests); by default one is opened from the environment and closed after. */
  store?: Store
  now?: () => Date
  /** The credentials key (tests); by default the service's, from CREDENTIALS_KEY or DATA_DIR. */
  credentialsKey?: CredentialsKey
}

/** Runs one command; returns the process exit code. */
export async function runFlowsCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const io = options.io ?? { out: (l) => console.log(l), err: (l) => console.error(l) }
  const now = options.now ?? (() => new Date())
  let store = options.store
  try {
    const args = parseArgs(argv, ['publish', 'help'])
    const [command, ...rest] = args.positionals
    if (command === undefined || command === 'help' || args.options.has('help')) {
      io.out(USAGE)
      return command === undefined && !args.options.has('help') ? 2 : 0
    }
    if (!['import', 'publish', 'archive', 'unarchive', 'token', 'list', 'credentials'].includes(command)) {
      throw new UsageError(`Unknown command "${command}"`)
    }
    const config = loadConfig()
    if (!store) {
      store = await openStore(storeOptionsFrom(config))
    }
    const run = { store, io, now, args, rest }
    if (command === 'import') await importCommand(run)
    else if (command === 'publish') await publishCommand(run)
    else if (command === 'archive' || command === 'unarchive') await archiveCommand(run, command === 'archive')
    else if (command === 'token') await tokenCommand(run)
    else if (command === 'credentials') {
      const opened = store
      await credentialsCommand({
        ...run,
        config,
        ...(options.credentialsKey ? { key: options.credentialsKey } : {}),
        workspaceId: () => workspaceFrom(opened, args, now),
      })
    } else await listCommand(run)
    return 0
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`)
      return 2
    }
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`)
    if (error instanceof HttpError && Array.isArray(error.details)) {
      for (const issue of error.details as Array<{ path: string; message: string }>) {
        io.err(`  ${issue.path || '(root)'}: ${issue.message}`)
      }
    }
    return 1
  } finally {
    if (store && !options.store) await store.close()
  }
}

interface Run {
  store: Store
  io: CliIo
  now: () => Date
  args: ParsedArgs
  rest: string[]
}

async function importCommand({ store, io, now, args, rest }: Run): Promise<void> {
  assertKnownOptions(args, ['publish', 'workspace'])
  const [file] = rest
  if (file === undefined || rest.length > 1) throw new UsageError('import takes exactly one FILE')
  const workspaceId = await workspaceFrom(store, args, now)
  const parsed = importFlowSchema.safeParse(migrateToV6(await readJsonFile(file)))
  if (!parsed.success) {
    throw new HttpError('invalid_body', `${file} is not a flow export.`, readableIssues(parsed.error))
  }
  const record = await importFlow(store, { workspaceId, flow: parsed.data, now: now() })
  const flow = toFlow(record)
  io.out(`Imported "${flow.name}" into workspace ${workspaceId}`)
  io.out(`  id:        ${flow.id}`)
  io.out(`  publicId:  ${flow.publicId}`)
  if (args.options.has('publish')) {
    const published = await publishFlow(store, { flowId: record.id, now: now(), authorize: () => {} })
    io.out(`  published: yes (${published.publishedAt})`)
  } else {
    io.out(`  published: no (run \`npm run flows -- publish ${flow.id}\`)`)
  }
}

async function publishCommand(run: Run): Promise<void> {
  const { store, io, now } = run
  const flow = await flowArgument(run, 'publish')
  const published = await publishFlow(store, { flowId: flow.id, now: now(), authorize: () => {} })
  io.out(`Published ${flow.id} (publicId ${flow.publicId}) at ${published.publishedAt}`)
}

async function archiveCommand(run: Run, archived: boolean): Promise<void> {
  const flow = await flowArgument(run, archived ? 'archive' : 'unarchive')
  await run.store.flows.setArchived(flow.id, archived, run.now().toISOString())
  run.io.out(`${archived ? 'Archived' : 'Unarchived'} ${flow.id} (publicId ${flow.publicId})`)
}

async function flowArgument({ store, args, rest }: Run, command: string): Promise<FlowRecord> {
  assertKnownOptions(args, [])
  const [ref] = rest
  if (ref === undefined || rest.length > 1) throw new UsageError(`${command} takes exactly one FLOW (id or publicId)`)
  const flow = await store.flows.findByIdOrPublicId(ref)
  if (!flow) throw new Error(`No flow with id or publicId "${ref}"`)
  return flow
}

async function tokenCommand({ store, io, now, args, rest }: Run): Promise<void> {
  assertKnownOptions(args, ['kind', 'workspace', 'label'])
  if (rest[0] !== 'create' || rest.length > 1) throw new UsageError('Expected: token create --kind secret|publishable')
  const kind = stringOption(args, 'kind')
  if (kind !== 'secret' && kind !== 'publishable') throw new UsageError('--kind must be secret or publishable')
  const workspaceId = await workspaceFrom(store, args, now)
  const token = newToken(kind as TokenKind)
  await store.tokens.insert({
    id: newId(),
    workspaceId,
    kind,
    tokenHash: hashToken(token),
    label: stringOption(args, 'label') ?? null,
    createdAt: now(),
  })
  io.out(`Created a ${kind} token for workspace ${workspaceId}. It is shown only this once:`)
  io.out(token)
  if (kind === 'secret') io.out('Keep it on servers only: it can change every flow of the workspace.')
}

async function listCommand({ store, io, args, rest }: Run): Promise<void> {
  assertKnownOptions(args, ['workspace'])
  if (rest.length > 0) throw new UsageError('list takes no arguments')
  const flows = await store.flows.listByWorkspace(stringOption(args, 'workspace'))
  if (flows.length === 0) {
    io.out('No flows.')
    return
  }
  io.out(['id', 'publicId', 'workspace', 'published', 'closed', 'name'].join('\t'))
  for (const flow of flows) {
    const published = await store.publishedFlows.findCurrent(flow.id)
    io.out(
      [
        flow.id,
        flow.publicId,
        flow.workspaceId,
        published ? published.publishedAt : 'no',
        flow.isClosed ? 'yes' : 'no',
        String(flow.content.name ?? ''),
      ].join('\t'),
    )
  }
}

async function workspaceFrom(store: Store, args: ParsedArgs, now: () => Date): Promise<string> {
  const id = stringOption(args, 'workspace') ?? DEMO_WORKSPACE_ID
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new UsageError('--workspace must be 1–64 letters, digits, _ or -')
  await store.workspaces.ensure(id, id, now())
  return id
}

async function readJsonFile(file: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(userPath(file), 'utf8')
  } catch (error) {
    throw new Error(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFlowsCli(process.argv.slice(2)).then((code) => process.exit(code))
}

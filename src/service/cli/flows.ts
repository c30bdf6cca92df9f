import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadConfig } from '../config'
import { type CredentialsKey, loadCredentialsKey } from '../credentials/credentials-key'
import { DEMO_WORKSPACE_ID } from '../env-tokens'
import { HttpError } from '../http/errors'
import { embeddedDatabaseExists, openStore, storeOptionsFrom } from '../store/open-store'
import type { Store } from '../store/store'
import { adminSocketPath } from './admin-socket'
import { apiAdmin } from './api-admin'
import { parseArgs, stringOption, UsageError } from './args'
import {
  type CommandRun,
  importCommand,
  listCommand,
  publishCommand,
  resultsCommand,
  standingCommand,
  tokenCommand,
  updateCommand,
} from './commands'
import { CREDENTIALS_USAGE, credentialsCommand } from './credentials-command'
import type { FlowAdmin } from './flow-admin'
import { cliInvocation } from './invocation'
import { localAdmin } from './local-admin'
import { serviceAdmin } from './service-admin'
import { BadInputError, TEST_USAGE, testCommand } from './test-command'
import { diffCommand, rollbackCommand, versionsCommand } from './versions-command'

/**
 * `npx flow-service <command>` (build/service/flow-service.mjs): manage flows, results and tokens,
 * with the service's own configuration. With FLOW_SERVICE_URL (and FLOW_SECRET_TOKEN) every
 * command goes through the running service's API. Otherwise on the service's database: a service
 * running on the embedded database answers itself (admin-socket.ts), else the command line opens
 * the database, which must exist: it never makes one.
 */

/** The usage text, naming the command as the user ran it (`cli`: see invocation.ts). */
export const usage = (cli: string) => `Usage: ${cli} <command>

  import FILE [--publish] [--workspace ID]   import a flow export (JSON); prints its id and publicId
  update FLOW FILE [--publish]                replace a flow (id or publicId) with a new export of it,
                                              keeping its id and publicId (embeds keep working)
  publish FLOW [--note TEXT] | unpublish FLOW make the flow as it is what visitors get (a new version,
                                              with your note), or stop new conversations (those under way finish)
  versions FLOW                               list the flow's published versions, newest first
  diff FLOW A B                               what changed from version A to version B
  rollback FLOW N [--note TEXT]               publish version N again as the newest version (it also
                                              becomes the flow's content); conversations under way finish
  archive FLOW | unarchive FLOW               take a flow out of service (no chats, no share page) or back
  list [--workspace ID]                       list flows, with their result counts
  results FLOW [--csv | --jsonl] [--completed true|false] [--from DATE] [--to DATE] [--search TEXT]
                                              write the flow's results (CSV by default) to standard output
  results FLOW --delete ID[,ID…] | --delete-all
                                              delete results, with their answers, logs and files
${TEST_USAGE}
  token create --kind secret|publishable [--workspace ID] [--label TEXT]
                                              create an API token; it is printed once, store it now
  token list [--workspace ID]                 list tokens (never their secret)
  token revoke ID [--workspace ID]            revoke a token: requests carrying it are refused at once
${CREDENTIALS_USAGE}

Where: with FLOW_SERVICE_URL and FLOW_SECRET_TOKEN set, through that running service's API (the
token decides the workspace; --workspace is refused). Otherwise on the service's database:
DATABASE_URL (PostgreSQL) or DATA_DIR (embedded, default ./.data; a service running on it answers
itself), DATABASE_SCHEMA; the workspace defaults to "${DEMO_WORKSPACE_ID}" and is created when missing.`

export interface CliIo {
  out: (line: string) => void
  err: (line: string) => void
  /** Bytes for standard output (a results export), written in order, each before the next. */
  write?: (chunk: Uint8Array) => Promise<void>
}

export interface CliOptions {
  io?: CliIo
  /** An open store to use (tests); by default one is opened from the environment and closed after. */
  store?: Store
  now?: () => Date
  /** The credentials key (tests); by default the service's, from CREDENTIALS_KEY or DATA_DIR. */
  credentialsKey?: CredentialsKey
  /** FLOW_SERVICE_URL and FLOW_SECRET_TOKEN come from here (tests); by default the process's. */
  env?: Record<string, string | undefined>
  /** How the user ran the command line, for usage text and hints; by default as this process was run. */
  invocation?: string
}

const COMMANDS = [
  'import',
  'update',
  'publish',
  'versions',
  'diff',
  'rollback',
  'unpublish',
  'archive',
  'unarchive',
  'list',
  'results',
  'token',
  'credentials',
  'test',
]

/** Runs one command; returns the process exit code. */
export async function runFlowsCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const io = options.io ?? { out: (l) => console.log(l), err: (l) => console.error(l), write: writeStdout }
  const cli = options.invocation ?? cliInvocation()
  let admin: FlowAdmin | undefined
  try {
    const args = parseArgs(argv, ['publish', 'help', 'csv', 'jsonl', 'delete-all', 'json'])
    const [command, ...rest] = args.positionals
    if (command === undefined || command === 'help' || args.options.has('help')) {
      io.out(usage(cli))
      return command === undefined && !args.options.has('help') ? 2 : 0
    }
    if (!COMMANDS.includes(command)) throw new UsageError(`Unknown command "${command}"`)
    // A flow test needs no service and no database of the service's: it makes one of its own.
    if (command === 'test') return await testCommand({ args, rest, out: io.out, store: options.store })
    admin = await openAdmin(options)
    const run: CommandRun = { admin, args, rest, cli, out: io.out, write: io.write ?? writeStdout }
    if (command === 'import') await importCommand(run)
    else if (command === 'update') await updateCommand(run)
    else if (command === 'publish') await publishCommand(run)
    else if (command === 'versions') await versionsCommand(run)
    else if (command === 'diff') await diffCommand(run)
    else if (command === 'rollback') await rollbackCommand(run)
    else if (command === 'unpublish' || command === 'archive' || command === 'unarchive') await standingCommand(run, command)
    else if (command === 'list') await listCommand(run)
    else if (command === 'results') await resultsCommand(run)
    else if (command === 'token') await tokenCommand(run)
    else {
      const opened = admin
      await credentialsCommand({ io, args, rest, credentials: () => opened.credentials(stringOption(args, 'workspace')) })
    }
    return 0
  } catch (error) {
    if (error instanceof BadInputError) {
      io.err(error.message)
      return 2
    }
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${usage(cli)}`)
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
    await admin?.close()
  }
}

/**
 * The running service's API when FLOW_SERVICE_URL says where it is; else the database: the one
 * DATABASE_URL names, or the embedded one in DATA_DIR, through the service running on it if one is.
 */
async function openAdmin(options: CliOptions): Promise<FlowAdmin> {
  const env = options.env ?? process.env
  const url = env.FLOW_SERVICE_URL?.trim()
  if (url) {
    const token = env.FLOW_SECRET_TOKEN?.trim()
    if (!token) throw new UsageError('FLOW_SERVICE_URL needs FLOW_SECRET_TOKEN: a secret token of the workspace to work in')
    if (!/^https?:\/\/[^\s/]+/.test(url)) throw new UsageError(`FLOW_SERVICE_URL must be the service's http(s) address, not "${url}"`)
    return apiAdmin({ url, token })
  }
  let config = loadConfig()
  if (options.store === undefined && config.databaseUrl === undefined) {
    // A relative DATA_DIR is the project's, as for `npm run serve` (npx runs where the user is).
    const dataDir = resolve(env.npm_config_local_prefix ?? process.cwd(), config.dataDir)
    const running = await serviceAdmin(adminSocketPath(dataDir))
    if (running) return running
    if (!embeddedDatabaseExists(dataDir)) throw new Error(noDatabase(dataDir))
    config = { ...config, dataDir }
  }
  const owned = options.store === undefined
  const store =
    options.store ??
    (await openStore(storeOptionsFrom(config)).catch((error: unknown) => {
      // The embedded database is one process's: say how to work beside the process holding it.
      if (config.databaseUrl !== undefined || !(error instanceof Error)) throw error
      throw new Error(`${error.message} To work beside the running service, set FLOW_SERVICE_URL (its address) and FLOW_SECRET_TOKEN.`)
    }))
  let key: Promise<CredentialsKey> | undefined
  return localAdmin({
    store,
    now: options.now ?? (() => new Date()),
    keepVersions: config.keepVersions,
    credentialsKey: () =>
      (key ??= options.credentialsKey ? Promise.resolve(options.credentialsKey) : loadCredentialsKey(config).then((loaded) => loaded.key)),
    close: async () => {
      if (owned) await store.close()
    },
  })
}

/** Why the command line will not make an embedded database nobody asked for, and where to point it. */
const noDatabase = (dataDir: string) => `No flow service database in ${dataDir}, and the command line does not make one.
Run it where the service runs, or point it at the service's data:
  DATA_DIR=PATH                   the data directory of a service on the embedded database
  DATABASE_URL=postgres://…       the PostgreSQL server of a service
  FLOW_SERVICE_URL=https://… FLOW_SECRET_TOKEN=fs_sk_…   a running service, through its API
A new embedded database is made by starting the service.`

/** Standard output with its back-pressure: a large export waits for the pipe rather than filling memory. */
function writeStdout(chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()))
  })
}

// Run as a command: the script itself, or the `flow-service` link to it npm makes.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  runFlowsCli(process.argv.slice(2)).then((code) => process.exit(code))
}

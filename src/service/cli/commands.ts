import { readFile } from 'node:fs/promises'
import { HttpError } from '../http/errors'
import { readExportQuery } from '../results/result-query'
import { assertKnownOptions, type ParsedArgs, stringOption, UsageError, userPath } from './args'
import type { FlowAdmin } from './flow-admin'

/**
 * The commands of the command line (`npx flow-service`): each checks its arguments, asks the admin (the database or the
 * service's API) and prints what happened. Results go to `write` (standard output), as they
 * stream.
 */

export interface CommandRun {
  admin: FlowAdmin
  args: ParsedArgs
  rest: string[]
  /** The command line as the user ran it (`npx flow-service`), for the commands a hint names. */
  cli: string
  out: (line: string) => void
  write: (chunk: Uint8Array) => Promise<void>
}

export async function importCommand({ admin, args, rest, cli, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, ['publish', 'workspace'])
  const [file] = rest
  if (file === undefined || rest.length > 1) throw new UsageError('import takes exactly one FILE')
  const flow = await asFlowFile(file, (json) => admin.importFlow(json, stringOption(args, 'workspace')))
  out(`Imported "${flow.name}" into workspace ${flow.workspaceId}`)
  out(`  id:        ${flow.id}`)
  out(`  publicId:  ${flow.publicId}`)
  if (args.options.has('publish')) out(`  published: yes (${(await admin.publish(flow.id)).publishedAt})`)
  else out(`  published: no (run \`${cli} publish ${flow.id}\`)`)
}

export async function updateCommand({ admin, args, rest, cli, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, ['publish'])
  const [ref, file] = rest
  if (ref === undefined || file === undefined || rest.length > 2) throw new UsageError('update takes a FLOW (id or publicId) and a FILE')
  const flow = await asFlowFile(file, (json) => admin.replaceFlow(ref, json))
  out(`Updated "${flow.name}" from ${file}; its id and publicId stay, so its embeds and share link keep working`)
  out(`  id:        ${flow.id}`)
  out(`  publicId:  ${flow.publicId}`)
  if (args.options.has('publish')) out(`  published: yes (${(await admin.publish(flow.id)).publishedAt})`)
  else out(`  published: not yet; visitors get the previous version until you run \`${cli} publish ${flow.id}\``)
}

export async function publishCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, ['note'])
  const [ref] = rest
  if (ref === undefined || rest.length > 1) throw new UsageError('publish takes exactly one FLOW (id or publicId)')
  const { flow, publishedAt, version } = await admin.publish(ref, stringOption(args, 'note'))
  out(`Published ${flow.id} (publicId ${flow.publicId}) as version ${version.number} at ${publishedAt}`)
}

const STANDING_DONE = { archive: 'Archived', unarchive: 'Unarchived', unpublish: 'Unpublished' } as const

export async function standingCommand(run: CommandRun, change: keyof typeof STANDING_DONE): Promise<void> {
  const flow = await run.admin.changeStanding(flowArgument(run.args, run.rest, change), change)
  const after = change === 'unpublish' ? ': no new conversation starts until it is published again' : ''
  run.out(`${STANDING_DONE[change]} ${flow.id} (publicId ${flow.publicId})${after}`)
}

export async function listCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, ['workspace'])
  if (rest.length > 0) throw new UsageError('list takes no arguments')
  const flows = await admin.listFlows(stringOption(args, 'workspace'))
  if (flows.length === 0) return out('No flows.')
  out(['id', 'publicId', 'workspace', 'published', 'closed', 'archived', 'results', 'completed', 'name'].join('\t'))
  for (const flow of flows) {
    const yesNo = (value: boolean) => (value ? 'yes' : 'no')
    const row = [flow.id, flow.publicId, flow.workspaceId, flow.publishedAt ?? 'no', yesNo(flow.isClosed), yesNo(flow.isArchived)]
    out([...row, String(flow.results.total), String(flow.results.completed), flow.name].join('\t'))
  }
}

export const RESULTS_OPTIONS = ['csv', 'jsonl', 'completed', 'from', 'to', 'search', 'delete', 'delete-all']

/** `results FLOW [--csv | --jsonl] [filters]`: the export, streamed to standard output. */
export async function resultsCommand({ admin, args, rest, out, write }: CommandRun): Promise<void> {
  assertKnownOptions(args, RESULTS_OPTIONS)
  const [ref] = rest
  if (ref === undefined || rest.length > 1) throw new UsageError('results takes exactly one FLOW (id or publicId)')
  if (args.options.has('csv') && args.options.has('jsonl')) throw new UsageError('Choose one of --csv and --jsonl')
  if (args.options.has('delete') || args.options.has('delete-all')) return deleteResultsCommand(admin, ref, args, out)
  // The API's filters, checked the same way.
  const query: Record<string, string[]> = { format: [args.options.has('jsonl') ? 'jsonl' : 'csv'] }
  for (const [option, parameter] of [
    ['completed', 'completed'],
    ['from', 'from'],
    ['to', 'to'],
    ['search', 'q'],
  ] as const) {
    const value = stringOption(args, option)
    if (value !== undefined) query[parameter] = [value]
  }
  const { format, filters } = readExportQuery(query)
  const reader = (await admin.exportResults(ref, { format, filters })).getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) await write(chunk.value)
}

/** `results FLOW --delete ID[,ID…]` or `--delete-all`: results deleted with their answers, logs and files. */
async function deleteResultsCommand(admin: FlowAdmin, ref: string, args: ParsedArgs, out: CommandRun['out']): Promise<void> {
  const ids = stringOption(args, 'delete')
  if ((ids === undefined) === !args.options.has('delete-all')) throw new UsageError('Give either --delete ID[,ID…] or --delete-all')
  if (args.options.size > 1) throw new UsageError('--delete and --delete-all take no other option')
  const target =
    ids === undefined
      ? { all: true as const }
      : {
          resultIds: ids
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        }
  const deleted = await admin.deleteResults(ref, target)
  out(`Deleted ${deleted} result${deleted === 1 ? '' : 's'} of ${ref}`)
}

export async function tokenCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  const [action, ...more] = rest
  const workspace = stringOption(args, 'workspace')
  if (action === 'create') {
    assertKnownOptions(args, ['kind', 'workspace', 'label', 'name', 'avatar-url'])
    if (more.length > 0) throw new UsageError('Expected: token create --kind secret|publishable|agent')
    const kind = stringOption(args, 'kind')
    if (kind !== 'secret' && kind !== 'publishable' && kind !== 'agent') throw new UsageError('--kind must be secret, publishable or agent')
    const name = stringOption(args, 'name')
    if ((kind === 'agent') !== (name !== undefined))
      throw new UsageError('--name (the name visitors see) goes with --kind agent, and only with it')
    const avatarUrl = stringOption(args, 'avatar-url')
    const agent = name === undefined ? undefined : { name, ...(avatarUrl ? { avatarUrl } : {}) }
    const { value, workspaceId } = await admin.createToken(kind, stringOption(args, 'label'), workspace, agent)
    out(`Created a ${kind} token for workspace ${workspaceId}. It is shown only this once:`)
    out(value)
    if (kind === 'secret') out('Keep it on servers only: it can change every flow of the workspace.')
  } else if (action === 'list') {
    assertKnownOptions(args, ['workspace'])
    if (more.length > 0) throw new UsageError('token list takes no arguments')
    const tokens = await admin.listTokens(workspace)
    if (tokens.length === 0) return out('No tokens.')
    out(['id', 'kind', 'ends with', 'created', 'label'].join('\t'))
    for (const token of tokens) out([token.id, token.kind, token.hint ?? '', token.createdAt, token.label ?? ''].join('\t'))
  } else if (action === 'revoke') {
    assertKnownOptions(args, ['workspace'])
    const [id] = more
    if (id === undefined || more.length > 1) throw new UsageError('token revoke takes exactly one token ID (see token list)')
    await admin.revokeToken(id, workspace)
    out(`Revoked token ${id}: every request carrying it is refused from now on.`)
  } else {
    throw new UsageError('Expected: token create|list|revoke')
  }
}

function flowArgument(args: ParsedArgs, rest: string[], command: string): string {
  assertKnownOptions(args, [])
  const [ref] = rest
  if (ref === undefined || rest.length > 1) throw new UsageError(`${command} takes exactly one FLOW (id or publicId)`)
  return ref
}

/** Reads a flow file and hands it over; a file the service refuses is named in the error. */
async function asFlowFile<T>(file: string, use: (json: unknown) => Promise<T>): Promise<T> {
  const json = await readJsonFile(file)
  try {
    return await use(json)
  } catch (error) {
    if (error instanceof HttpError && error.code === 'invalid_body')
      throw new HttpError('invalid_body', `${file} is not a flow export.`, error.details)
    throw error
  }
}

export async function readJsonFile(file: string): Promise<unknown> {
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

import { readFile } from 'node:fs/promises'
import { CREDENTIAL_TYPES, createCredentialRequestSchema } from '../../protocol/credentials'
import { readableIssues } from '../../protocol/index'
import { HttpError } from '../http/errors'
import { assertKnownOptions, type ParsedArgs, stringOption, UsageError, userPath } from './args'
import type { CredentialsAdmin } from './flow-admin'

export const CREDENTIALS_USAGE = `  credentials list [--workspace ID]            list credentials (secrets masked)
  credentials add --type ${CREDENTIAL_TYPES.join('|')} (--data-file FILE | --data JSON)
                  [--id ID] [--name TEXT] [--workspace ID]
                                              store credentials, encrypted; --data-file keeps
                                              secrets out of the shell history
  credentials remove ID [--workspace ID]      delete credentials`

export interface CredentialsRun {
  io: { out: (line: string) => void }
  args: ParsedArgs
  rest: string[]
  /** The workspace's credentials: the vault the service uses over its database, or its API. */
  credentials: () => Promise<CredentialsAdmin>
}

/** `npx flow-service credentials …`: stored encrypted, shown masked. */
export async function credentialsCommand(run: CredentialsRun): Promise<void> {
  const [action, ...rest] = run.rest
  if (action === 'list') {
    assertKnownOptions(run.args, ['workspace'])
    if (rest.length > 0) throw new UsageError('credentials list takes no arguments')
    const credentials = await (await run.credentials()).list()
    if (credentials.length === 0) return run.io.out('No credentials.')
    run.io.out(['id', 'type', 'name', 'updated', 'data'].join('\t'))
    for (const c of credentials) {
      const data = c.unreadable ? '(cannot be opened with this CREDENTIALS_KEY)' : JSON.stringify(c.data)
      run.io.out([c.id, c.type, c.name, c.updatedAt, data].join('\t'))
    }
  } else if (action === 'add') {
    assertKnownOptions(run.args, ['type', 'data', 'data-file', 'id', 'name', 'workspace'])
    if (rest.length > 0) throw new UsageError('credentials add takes options only')
    const request = createCredentialRequestSchema.safeParse({
      type: stringOption(run.args, 'type'),
      ...optional('id', stringOption(run.args, 'id')),
      ...optional('name', stringOption(run.args, 'name')),
      data: await readData(run.args),
    })
    if (!request.success) throw new HttpError('invalid_body', 'These credentials are not valid.', readableIssues(request.error))
    const credential = await (await run.credentials()).create(request.data)
    run.io.out(`Stored ${credential.type} credentials "${credential.id}" (encrypted): ${JSON.stringify(credential.data)}`)
  } else if (action === 'remove') {
    assertKnownOptions(run.args, ['workspace'])
    const [id] = rest
    if (id === undefined || rest.length > 1) throw new UsageError('credentials remove takes exactly one ID')
    await (await run.credentials()).remove(id)
    run.io.out(`Removed credentials "${id}"`)
  } else {
    throw new UsageError('Expected: credentials list|add|remove')
  }
}

async function readData(args: ParsedArgs): Promise<unknown> {
  const file = stringOption(args, 'data-file')
  const inline = stringOption(args, 'data')
  if ((file === undefined) === (inline === undefined)) throw new UsageError('Give the data with exactly one of --data-file or --data')
  const text =
    file === undefined
      ? inline!
      : await readFile(userPath(file), 'utf8').catch(() => {
          throw new Error(`Cannot read ${file}`)
        })
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError('The credentials data must be a JSON object, e.g. {"apiKey": "…"}')
  }
}

function optional(name: string, value: string | undefined): Record<string, string> {
  return value === undefined ? {} : { [name]: value }
}

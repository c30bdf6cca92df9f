import type { FlowVersion } from '../../protocol/management'
import { describeChange } from '../flows/version-diff'
import { assertKnownOptions, stringOption, UsageError } from './args'
import type { CommandRun } from './commands'

/** `versions FLOW`, `diff FLOW A B`, `rollback FLOW N [--note TEXT]`: a flow's published versions. */

export async function versionsCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, [])
  const [ref] = rest
  if (ref === undefined || rest.length > 1) throw new UsageError('versions takes exactly one FLOW (id or publicId)')
  const versions = await admin.listVersions(ref)
  if (versions.length === 0) return out(`${ref} has never been published.`)
  out(['version', 'published', 'by', 'live', 'note'].join('\t'))
  for (const version of versions) {
    out([String(version.number), version.publishedAt, version.publishedBy ?? '', version.isLive ? 'yes' : '', noteOf(version)].join('\t'))
  }
}

export async function diffCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, [])
  const [ref, a, b] = rest
  if (ref === undefined || a === undefined || b === undefined || rest.length > 3) {
    throw new UsageError('diff takes a FLOW (id or publicId) and two version numbers, A and B')
  }
  const diff = await admin.diffVersions(ref, versionArgument(a, 'A'), versionArgument(b, 'B'))
  const count = diff.changes.length
  out(
    `From version ${diff.from.number} to version ${diff.to.number}: ${count === 0 ? 'no changes' : `${count} change${count === 1 ? '' : 's'}`}`,
  )
  const marks = { added: '+', removed: '-', changed: '~' } as const
  for (const change of diff.changes) for (const line of describeChange(change)) out(`${marks[change.change]} ${line}`)
}

export async function rollbackCommand({ admin, args, rest, out }: CommandRun): Promise<void> {
  assertKnownOptions(args, ['note'])
  const [ref, n] = rest
  if (ref === undefined || n === undefined || rest.length > 2)
    throw new UsageError('rollback takes a FLOW (id or publicId) and a version number N')
  const { flow, version } = await admin.rollback(ref, versionArgument(n, 'N'), stringOption(args, 'note'))
  out(`Published version ${version.restoredFrom} of ${flow.id} again as version ${version.number}; it is also the flow's content now.`)
  out('Conversations under way finish on the version they started on.')
}

/** A version number argument; anything else is a usage error (exit code 2). */
function versionArgument(value: string, name: string): number {
  if (!/^[1-9][0-9]{0,8}$/.test(value)) throw new UsageError(`${name} must be a version number (1, 2, 3…), not "${value}"`)
  return Number(value)
}

const noteOf = (version: FlowVersion) => version.note ?? ''

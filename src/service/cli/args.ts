import { resolve } from 'node:path'

/**
 * A file named on the command line, as the user meant it: relative to where they ran the command
 * (`npm run` runs its scripts in the project's folder and says where it was run in `INIT_CWD`).
 */
export const userPath = (file: string): string => resolve(process.env.INIT_CWD ?? process.cwd(), file)

/** A small argument parser: positionals, `--flag` booleans and `--name value` options. */
export interface ParsedArgs {
  positionals: string[]
  options: Map<string, string | true>
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export function parseArgs(argv: readonly string[], booleanFlags: readonly string[]): ParsedArgs {
  const positionals: string[] = []
  const options = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (!arg.startsWith('--')) {
      positionals.push(arg)
      continue
    }
    const [name, inline] = splitOnce(arg.slice(2), '=')
    if (booleanFlags.includes(name)) {
      options.set(name, true)
    } else if (inline !== undefined) {
      options.set(name, inline)
    } else {
      const value = argv[i + 1]
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`)
      options.set(name, value)
      i++
    }
  }
  return { positionals, options }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name)
  return typeof value === 'string' ? value : undefined
}

/** Refuses options a command does not know, so typos do not pass silently. */
export function assertKnownOptions(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.options.keys()) {
    if (!known.includes(name)) throw new UsageError(`Unknown option --${name}`)
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

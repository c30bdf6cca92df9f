import type { DestinationStream } from 'pino'

/**
 * The log as a person reads it on a terminal: the time, the level and the message, then the other
 * fields as `name=value`, and an error's stack (or its digest) indented below. pino writes JSON
 * lines; this rewrites each one.
 */
export function prettyLines(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(prettyLine(line)) }
}

const LEAVE_OUT = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err'])

export function prettyLine(line: string): string {
  let fields: Record<string, unknown>
  try {
    fields = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line
  }
  const time = typeof fields.time === 'string' ? fields.time.slice(11, 23) : ''
  const level = String(fields.level ?? '')
    .toUpperCase()
    .padEnd(5)
  const rest = Object.entries(fields)
    .filter(([name]) => !LEAVE_OUT.has(name))
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  const text = [`${time} ${level} ${String(fields.msg ?? '')}`, ...rest].join('  ')
  return `${text}${errorText(fields.err)}\n`
}

function errorText(err: unknown): string {
  if (typeof err !== 'object' || err === null) return ''
  const { type, code, message, digest, stack } = err as Record<string, unknown>
  const notes = [code === undefined ? '' : `code ${String(code)}`, `digest ${String(digest)}`].filter(Boolean).join(', ')
  const [first, ...frames] = (typeof stack === 'string' ? stack : `${String(type)}: ${String(message)}`).split('\n')
  return ['', `${first} (${notes})`, ...frames.map((frame) => `  ${frame.trim()}`)].join('\n    ')
}

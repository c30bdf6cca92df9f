import { createHash } from 'node:crypto'
import pino, { type DestinationStream, type Logger } from 'pino'
import { prettyLines } from './pretty-lines'

/**
 * The service's log: one JSON object per line (pino), or readable lines on a terminal. Every
 * line has its level and time; a line written for a request also has the request's id and, once
 * known, its workspace (request-context.ts's `logFor`). An error is written as its type, its
 * code, its message and a digest of where it was thrown; its stack only in development. The
 * service's own messages name no secret, and error messages are scrubbed of bearer tokens.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface LogSettings {
  level: LogLevel
  /** `auto`: readable lines when standard output is a terminal, JSON otherwise. */
  format: 'json' | 'pretty' | 'auto'
  /** Errors with their stack (development); otherwise with a digest of it. */
  stacks: boolean
}

export type { Logger }

export function createLogger(settings: LogSettings, destination?: DestinationStream): Logger {
  const pretty = settings.format === 'pretty' || (settings.format === 'auto' && process.stdout.isTTY === true)
  return pino(
    {
      level: settings.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: (error: unknown) => errorFields(error, settings.stacks) },
    },
    destination ?? (pretty ? prettyLines(process.stdout) : stdoutLines()),
  )
}

/**
 * Standard output, written in batches: lines wait until 8 KiB are pending or for 50 ms at most,
 * then go out as one asynchronous write (pino's own destination, which also retries a full pipe),
 * and what is pending is written when the process exits. One write per line cost a chat request a
 * tenth of its time under load (`npm run bench:service`), and so did writing synchronously, which
 * stalls every request while the reader drains the pipe; pino's own `minLength` batching measures
 * the whole pending text again for every line it adds, which cost about as much as the line.
 */
const BATCH_BYTES = 8 * 1024
const BATCH_MS = 50
let stdout: DestinationStream | undefined

function stdoutLines(): DestinationStream {
  if (stdout) return stdout
  const out = pino.destination({ dest: 1, sync: false })
  let pending: string[] = []
  let size = 0
  let timer: NodeJS.Timeout | undefined
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    size = 0
    out.write(text)
  }
  process.on('exit', () => {
    flush()
    // At exit nothing asynchronous completes: what the destination still holds goes out now.
    out.flushSync()
  })
  stdout = {
    write(line: string) {
      pending.push(line)
      size += line.length
      if (size >= BATCH_BYTES) flush()
      else timer ??= setTimeout(flush, BATCH_MS).unref()
    },
  }
  return stdout
}

let root: Logger | undefined

/** Replaces the process's log (the entry points do it once from the configuration; tests to read it). */
export function configureLogging(settings: LogSettings, destination?: DestinationStream): Logger {
  root = createLogger(settings, destination)
  return root
}

/** The process's log; information by default until `configureLogging` says otherwise. */
export function log(): Logger {
  root ??= createLogger({ level: 'info', format: 'auto', stacks: false })
  return root
}

export interface ErrorFields {
  type: string
  code?: string
  message: string
  /** Tells failures thrown at the same place apart from others, whatever their message. */
  digest: string
  stack?: string
}

function errorFields(error: unknown, stacks: boolean): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)).slice(0, 500), digest: digest(String(error)) }
  const code = (error as { code?: unknown }).code
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))
  return {
    type: error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    message: scrub(error.message).slice(0, 500),
    digest: digest(frames.length > 0 ? frames.join('\n') : error.name),
    ...(stacks && error.stack ? { stack: scrub(error.stack) } : {}),
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12)

/** The service's tokens and any bearer credential, in case an error quotes one. */
function scrub(text: string): string {
  return text.replace(/\bfs_(sk|pk)_[A-Za-z0-9_-]+/g, 'fs_$1_…').replace(/\b(Bearer|Basic)\s+[^\s"',]+/gi, '$1 …')
}

import type { DestinationStream } from 'pino'
import { configureLogging, type LogSettings } from '../../../src/service/observability/log'

/** What tests run with: warnings and errors only, so the suite's output stays readable. */
export const QUIET_LOG: LogSettings = { level: 'warn', format: 'json', stacks: false }

/** A line of the service's log as operators' tools read it. */
export interface LogLine {
  level: string
  time: string
  msg: string
  requestId?: string
  clientRequestId?: string
  workspace?: string
  err?: { type: string; code?: string; message: string; digest: string; stack?: string }
  [field: string]: unknown
}

export interface CapturedLogs {
  /** Every line written since, parsed. */
  readonly lines: LogLine[]
  /** The lines as written. */
  text(): string
  /** For startServer's `logTo`. */
  readonly destination: DestinationStream
  /** Back to the quiet log. */
  restore(): void
}

/** Sends the process's log to memory (every level unless told otherwise) until `restore`. */
export function captureLogs(settings: Partial<LogSettings> = {}): CapturedLogs {
  const raw: string[] = []
  const lines: LogLine[] = []
  const destination = {
    write(line: string) {
      raw.push(line)
      lines.push(JSON.parse(line) as LogLine)
    },
  }
  configureLogging({ level: 'debug', format: 'json', stacks: false, ...settings }, destination)
  return { lines, text: () => raw.join(''), destination, restore: () => configureLogging(QUIET_LOG) }
}

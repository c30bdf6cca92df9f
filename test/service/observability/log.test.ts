import { describe, expect, it } from 'vitest'
import { newToken } from '../../../src/service/ids'
import { createLogger, type LogSettings } from '../../../src/service/observability/log'
import { prettyLine } from '../../../src/service/observability/pretty-lines'
import { type RequestContext, requestLogger } from '../../../src/service/observability/request-context'
import { captureLogs, type LogLine } from '../helpers/logs'

/** A logger writing into memory, as the service's writes to its standard output. */
function memoryLogger(settings: Partial<LogSettings> = {}) {
  const written: string[] = []
  const logger = createLogger(
    { level: 'info', format: 'json', stacks: false, ...settings },
    { write: (line: string) => void written.push(line) },
  )
  return { logger, written, lines: () => written.map((line) => JSON.parse(line) as LogLine) }
}

/** Errors thrown from one place, whatever their message. */
const thrownHere = (message: string) => Object.assign(new Error(message), { code: 'E_TEST' })

describe('the log', () => {
  it('writes one JSON object per line, with the level by name and the time', () => {
    const { logger, written, lines } = memoryLogger()
    logger.info({ route: '/v1/health' }, 'hello')
    logger.warn('careful')
    expect(written.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true)
    expect(lines()).toEqual([
      expect.objectContaining({ level: 'info', msg: 'hello', route: '/v1/health' }),
      expect.objectContaining({ level: 'warn', msg: 'careful' }),
    ])
    for (const line of lines()) expect(new Date(line.time).toISOString()).toBe(line.time)
  })

  it('leaves out what is below its level', () => {
    const { logger, lines } = memoryLogger({ level: 'warn' })
    logger.info('routine')
    logger.debug('detail')
    logger.error('broken')
    expect(lines().map((line) => line.msg)).toEqual(['broken'])
  })

  it("adds the request's id to the lines written for it, and its workspace once known", () => {
    const logs = captureLogs()
    try {
      const request: RequestContext = { requestId: 'req-00000001' }
      requestLogger(undefined).info('outside')
      requestLogger(request).info('opened')
      request.workspace = 'shop'
      requestLogger(request).info('found the flow')
    } finally {
      logs.restore()
    }
    expect(logs.lines.map(({ msg, requestId, workspace }) => ({ msg, requestId, workspace }))).toEqual([
      { msg: 'outside', requestId: undefined, workspace: undefined },
      { msg: 'opened', requestId: 'req-00000001', workspace: undefined },
      { msg: 'found the flow', requestId: 'req-00000001', workspace: 'shop' },
    ])
  })

  it('writes an error as its type, code, message and a digest, without its stack', () => {
    const { logger, written, lines } = memoryLogger()
    logger.error({ err: thrownHere('the disk is full') }, 'saving failed')
    expect(lines()[0]!.err).toEqual({
      type: 'Error',
      code: 'E_TEST',
      message: 'the disk is full',
      digest: expect.stringMatching(/^[0-9a-f]{12}$/),
    })
    expect(written.join('')).not.toMatch(/log\.test\.ts|\bat /)
  })

  it('gives errors thrown at one place one digest, whatever they say, and others another', () => {
    const { logger, lines } = memoryLogger()
    for (const message of ['first', 'second']) logger.error({ err: thrownHere(message) }, 'failed')
    logger.error({ err: new Error('first') }, 'failed')
    const [a, b, c] = lines().map((line) => line.err!.digest)
    expect(a).toBe(b)
    expect(c).not.toBe(a)
  })

  it('writes the stack in development', () => {
    const { logger, lines } = memoryLogger({ stacks: true })
    logger.error({ err: thrownHere('the disk is full') }, 'saving failed')
    expect(lines()[0]!.err?.stack).toMatch(/^Error: the disk is full\n\s+at .*log\.test\.ts/)
  })

  it('keeps tokens and bearer credentials an error quotes out of the line', () => {
    const { logger, written } = memoryLogger({ stacks: true })
    const secret = newToken('secret')
    logger.error({ err: new Error(`refused ${secret}; sent Authorization: Bearer sk-live-abc123 and Basic dXNlcjpwYXNz`) }, 'call failed')
    const text = written.join('')
    for (const leaked of [secret, secret.slice(6), 'sk-live-abc123', 'dXNlcjpwYXNz']) expect(text).not.toContain(leaked)
    expect(text).toContain('fs_sk_…')
  })
})

describe('readable lines for a terminal', () => {
  it('show the time, the level and the message, then the other fields', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-11-26T09:15:02.345Z',
      pid: 1,
      hostname: 'h',
      requestId: 'r1',
      route: '/v1/health',
      status: 200,
      msg: 'request',
    })
    expect(prettyLine(line)).toBe('09:15:02.345 INFO  request  requestId=r1  route=/v1/health  status=200\n')
  })

  it("show an error's stack, or its digest, indented below", () => {
    const { logger, written } = memoryLogger({ stacks: true })
    logger.error({ err: thrownHere('the disk is full') }, 'saving failed')
    const [head, first, ...frames] = prettyLine(written[0]!).trimEnd().split('\n')
    expect(head).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR saving failed$/)
    expect(first).toMatch(/^ {4}Error: the disk is full \(code E_TEST, digest [0-9a-f]{12}\)$/)
    expect(frames[0]).toMatch(/^ {6}at /)

    const plain = memoryLogger()
    plain.logger.error({ err: thrownHere('the disk is full') }, 'saving failed')
    expect(prettyLine(plain.written[0]!).split('\n')[1]).toMatch(/^ {4}Error: the disk is full \(code E_TEST, digest [0-9a-f]{12}\)$/)
  })
})

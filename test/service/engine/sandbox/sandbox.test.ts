import { afterAll, describe, expect, it } from 'vitest'
import { closeSandbox, runInSandbox, type SandboxProgram } from '../../../../src/service/engine/sandbox/sandbox'

const limits = { timeoutMs: 200, memoryBytes: 8 * 1024 * 1024 }
const run = async (body: string, params: string[] = [], args: unknown[] = []) =>
  (await runInSandbox({ body, params, args } satisfies SandboxProgram, limits)).outcome

afterAll(closeSandbox)

describe('runInSandbox', () => {
  it('returns what the code returns, with parameters bound to the given values', async () => {
    expect(await run('return a + b', ['a', 'b'], [30, 10])).toEqual({ status: 'ok', value: 40 })
    expect(await run('return name.toUpperCase()', ['name'], ['ada'])).toEqual({ status: 'ok', value: 'ADA' })
    expect(await run('return [1, "x", {a: 1}]')).toEqual({ status: 'ok', value: [1, 'x', { a: 1 }] })
    expect(await run('return undefined')).toEqual({ status: 'ok', value: null })
    expect(await run('return 10n ** 20n')).toEqual({ status: 'ok', value: '100000000000000000000' })
  })

  it('passes strings as data, never as code', async () => {
    const hostile = '"); throw new Error("escaped'
    expect(await run('return s', ['s'], [hostile])).toEqual({ status: 'ok', value: hostile })
  })

  it('tells syntax and reference errors apart from other failures', async () => {
    expect((await run('return (Hello there\n)')).status).toBe('syntax-error')
    expect((await run('return (Promoter\n)')).status).toBe('reference-error')
    expect(await run('throw new TypeError("bad")')).toEqual({ status: 'error', message: 'TypeError: bad' })
    expect(await run('throw 5')).toEqual({ status: 'error', message: 'Uncaught 5' })
  })

  it('reports functions and symbols as results no variable can hold', async () => {
    expect(await run('return Date')).toEqual({ status: 'not-a-value', type: 'function' })
    expect(await run('return Symbol("x")')).toEqual({ status: 'not-a-value', type: 'symbol' })
  })

  it('stops code that never ends', async () => {
    expect(await run('while (true) {}')).toEqual({ status: 'timeout' })
    expect(await run('return /(a+)+$/.test("a".repeat(40) + "b")')).toEqual({ status: 'timeout' })
  })

  it('stops code that allocates past the memory cap', async () => {
    // A generous deadline, so only the memory cap can stop these runs.
    const memoryOnly = { timeoutMs: 30_000, memoryBytes: 4 * 1024 * 1024 }
    const grow = async (body: string) => (await runInSandbox({ body, params: [], args: [] }, memoryOnly)).outcome
    expect(await grow('const a = []; while (true) a.push("x".repeat(65536) + a.length)')).toEqual({ status: 'out-of-memory' })
    expect(await grow('const a = []; while (true) a.push({ x: a.length })')).toEqual({ status: 'out-of-memory' })
    expect(await grow('let s = "x"; while (true) s += s')).toEqual({ status: 'out-of-memory' })
    expect(await grow('return new Array(1e8).fill(0).length')).toEqual({ status: 'out-of-memory' })
    expect(await run('return "ok"')).toEqual({ status: 'ok', value: 'ok' })
  })

  it('contains runaway recursion and keeps working afterwards', async () => {
    const deep = await run('function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(1e7)')
    expect(deep.status).toBe('error')
    // Deep JSON nesting recurses in the host's native stack frames; the run fails, the service does not.
    const nested = await run('return JSON.parse("[".repeat(200000) + "]".repeat(200000)).length')
    expect(nested.status).not.toBe('ok')
    expect(await run('return 1 + 1')).toEqual({ status: 'ok', value: 2 })
  })

  it('exposes nothing of the host', async () => {
    const probe = await run(
      'return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof console, typeof std, typeof os].join()',
    )
    expect(probe).toEqual({ status: 'ok', value: 'undefined,undefined,undefined,undefined,undefined,undefined,undefined' })
  })

  it('isolates runs from each other', async () => {
    await run('globalThis.leak = 42')
    expect(await run('return typeof leak')).toEqual({ status: 'ok', value: 'undefined' })
  })

  it('resolves promises the code returns', async () => {
    expect(await run('const x = await Promise.resolve(20); return x + 1')).toEqual({ status: 'ok', value: 21 })
    expect(await run('await null; throw new RangeError("nope")')).toEqual({ status: 'error', message: 'RangeError: nope' })
    expect(await run('return new Promise(() => {})')).toEqual({ status: 'error', message: 'The code never finished' })
  })

  it('refuses parameter names that are not identifiers', async () => {
    await expect(run('return 1', ['a); evil('], [1])).rejects.toThrow(/Invalid sandbox parameter/)
  })
})

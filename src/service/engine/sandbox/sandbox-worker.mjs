// @ts-check
/**
 * The sandbox worker: one QuickJS WebAssembly module, loaded once, evaluating one job at a time
 * with a fresh runtime and context per job. It is plain JavaScript because Node starts workers
 * from files without the TypeScript loader the service runs under; it stays small on purpose
 * (the job format and the outcome classification are all it knows).
 *
 * Limits, from the inside:
 * - time: QuickJS's interrupt handler stops the code at the deadline (the host also kills the
 *   whole worker if a single built-in call outlasts it, which the interrupt cannot see);
 * - memory: QuickJS's own accounting misses large allocations in this build, so the
 *   WebAssembly heap itself is capped: growing it past the job's allowance fails, malloc returns
 *   null and QuickJS throws "out of memory".
 */
import { parentPort } from 'node:worker_threads'
import { newQuickJSWASMModule, shouldInterruptAfterDeadline } from 'quickjs-emscripten'
import { lowerThreadPriority } from '../../thread-priority.mjs'

if (!parentPort) throw new Error('sandbox-worker.mjs must run as a worker thread')
const port = parentPort

// Flow code yields the CPU to the service's own threads: an endless loop slows its own tenant.
lowerThreadPriority()

/** QuickJS checks this stack limit itself, which keeps deep recursion off the host's stack. */
const MAX_STACK_BYTES = 256 * 1024
/** Room for the runtime and context themselves, on top of the job's allowance. */
const HEAP_SLACK_BYTES = 4 * 1024 * 1024
/** Past this growth, the worker asks to be replaced so the memory goes back to the system. */
const RECYCLE_ABOVE_BYTES = 48 * 1024 * 1024
const PAGE_BYTES = 65536

const quickjs = await newQuickJSWASMModule()
const memory = quickjs.getWasmMemory()
const baselineBytes = memory.buffer.byteLength
let heapCapBytes = Number.POSITIVE_INFINITY
const growHeap = memory.grow.bind(memory)
/** @param {number} pages */
memory.grow = (pages) => {
  if (memory.buffer.byteLength + pages * PAGE_BYTES > heapCapBytes) throw new RangeError('Sandbox heap cap reached')
  return growHeap(pages)
}

port.on('message', (/** @type {{id: number, source: string, timeoutMs: number, memoryBytes: number}} */ job) => {
  heapCapBytes = baselineBytes + job.memoryBytes + HEAP_SLACK_BYTES
  let outcome
  try {
    outcome = run(job)
  } catch {
    outcome = { status: 'error', message: 'The code stopped the sandbox' }
    port.postMessage({ id: job.id, outcome, recycle: true })
    return
  }
  port.postMessage({ id: job.id, outcome, recycle: memory.buffer.byteLength - baselineBytes > RECYCLE_ABOVE_BYTES })
})
port.postMessage({ ready: true })

/** @param {{source: string, timeoutMs: number, memoryBytes: number}} job */
function run(job) {
  const deadline = Date.now() + job.timeoutMs
  const runtime = quickjs.newRuntime()
  runtime.setMemoryLimit(job.memoryBytes)
  runtime.setMaxStackSize(MAX_STACK_BYTES)
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline))
  const context = runtime.newContext()
  /** @type {import('quickjs-emscripten').QuickJSHandle[]} */
  const handles = []
  /** @param {import('quickjs-emscripten').QuickJSHandle} handle */
  const keep = (handle) => {
    handles.push(handle)
    return handle
  }
  try {
    const result = context.evalCode(job.source, 'flow-code.js')
    if (result.error) return failure(context, keep(result.error), deadline)
    const value = keep(result.value)
    let state = context.getPromiseState(value)
    if (state.type === 'pending') {
      context.runtime.executePendingJobs().dispose()
      state = context.getPromiseState(value)
    }
    if (state.type === 'pending') {
      return Date.now() > deadline ? { status: 'timeout' } : { status: 'error', message: 'The code never finished' }
    }
    if (state.type === 'rejected') return failure(context, keep(state.error), deadline)
    return read(context, keep(state.value))
  } finally {
    for (const handle of handles) if (handle.alive) handle.dispose()
    context.dispose()
    runtime.dispose()
  }
}

/**
 * @param {import('quickjs-emscripten').QuickJSContext} context
 * @param {import('quickjs-emscripten').QuickJSHandle} handle
 */
function read(context, handle) {
  const type = context.typeof(handle)
  switch (type) {
    case 'string':
      return { status: 'ok', value: context.getString(handle) }
    case 'number':
      return { status: 'ok', value: context.getNumber(handle) }
    case 'boolean':
      return { status: 'ok', value: context.dump(handle) === true }
    case 'undefined':
      return { status: 'ok', value: null }
    case 'bigint':
      return { status: 'ok', value: context.getBigInt(handle).toString() }
    case 'object':
      try {
        // Serialised inside the sandbox (JSON), so its size counts against the memory cap.
        return { status: 'ok', value: context.dump(handle) }
      } catch {
        return { status: 'error', message: 'The result could not be read' }
      }
    default:
      return { status: 'not-a-value', type }
  }
}

/**
 * @param {import('quickjs-emscripten').QuickJSContext} context
 * @param {import('quickjs-emscripten').QuickJSHandle} handle
 * @param {number} deadline
 */
function failure(context, handle, deadline) {
  if (Date.now() > deadline) return { status: 'timeout' }
  let error
  try {
    error = context.dump(handle)
  } catch {
    return { status: 'out-of-memory' }
  }
  const isObject = typeof error === 'object' && error !== null
  const name = isObject && typeof error.name === 'string' ? error.name : ''
  const message = isObject ? (typeof error.message === 'string' ? error.message : '') : `Uncaught ${String(error)}`
  if (name === 'SyntaxError') return { status: 'syntax-error', message }
  if (name === 'ReferenceError') return { status: 'reference-error', message }
  if (name === 'InternalError' && message === 'interrupted') return { status: 'timeout' }
  if (name === 'InternalError' && /out of memory|too long/i.test(message)) return { status: 'out-of-memory' }
  return { status: 'error', message: name ? `${name}: ${message}` : message }
}

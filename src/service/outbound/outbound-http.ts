import type { Socket } from 'node:net'
import { Agent, buildConnector, fetch as undiciFetch } from 'undici'
import type { HttpCallRequest } from '../engine/core/ports'
import { log } from '../observability/log'
import { metrics } from '../observability/metrics'
import { AllowList, assertAllowedAddress, bareHost, isRefusedHostName, parseAddress, parseUrl, refusedRangeOf } from './address-policy'
import { capped } from './capped-body'
import { createNameResolver, type DnsOptions, type NameResolver } from './name-resolver'
import { describeFailure, invalidHeaders, lookupFailed, OutboundError, type OutboundFailure, refused, timedOut } from './outbound-errors'
import { DEFAULT_OUTBOUND_LIMITS, type OutboundLimits, type Release, WorkspaceLimits } from './workspace-limits'

export { OutboundError, type OutboundFailure } from './outbound-errors'

/**
 * Every HTTP call the service makes for a flow (HTTP request blocks, AI APIs) goes through here:
 * the address is checked when each connection opens, after name resolution, and the connection
 * is made to the very address checked (no second lookup an attacker's DNS could answer
 * differently). Redirects are followed one hop at a time, each hop a new check. Every call has a
 * deadline and a response size cap, and a call made for a workspace holds one of its call slots
 * until its answer is read and its connection attempts are over.
 */

export type OutboundRequest = HttpCallRequest

export interface OutboundResponse {
  status: number
  headers: Headers
  /** The address that answered, after redirects. */
  url: string
  body: Buffer
}

export type OutboundFetchInit = RequestInit & { timeoutMs?: number; maxResponseBytes?: number }

/** The calls a caller may make through the guard. */
export interface OutboundCalls {
  /** One call with its body read in full, within the deadline and the size cap. */
  request(request: OutboundRequest): Promise<OutboundResponse>
  /**
   * A `fetch` for client libraries (an OpenAI-compatible SDK): the same checks, redirects hop by
   * hop, a deadline (the caller's signal or `defaultTimeoutMs`) and a capped, streamed body.
   */
  fetch(input: string | URL, init?: OutboundFetchInit): Promise<Response>
  /** A checked address to open a non-HTTP connection to (SMTP); throws `OutboundError` when refused. */
  resolveHost(hostname: string, signal?: AbortSignal): Promise<string>
}

export interface OutboundHttp extends OutboundCalls {
  /** The same calls made for a workspace: within its lookup and call slots (workspace-limits.ts). */
  forWorkspace(workspaceId: string): OutboundCalls
  /** For one chat step of a workspace: also at most `callsPerStep` calls. */
  forStep(workspaceId: string): OutboundCalls
  close(): Promise<void>
}

export interface OutboundOptions {
  allow?: AllowList
  /** Name → addresses instead of DNS (tests give names addresses of their own). */
  resolve?: (hostname: string, signal?: AbortSignal) => Promise<string[]>
  /** The name servers and their timeouts (name-resolver.ts). */
  dns?: DnsOptions
  limits?: Partial<OutboundLimits>
  maxRedirects?: number
  defaultTimeoutMs?: number
  defaultMaxResponseBytes?: number
}

/** Longest any outgoing call may take, and the default response cap (about 2 MiB). */
export const MAX_OUTBOUND_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024
const DEFAULT_MAX_REDIRECTS = 5
const CONNECT_TIMEOUT_MS = 10_000
const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** All that follows a redirect to another origin: the CORS-safelisted request headers, never a key. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'content-language', 'content-type'])

/** Who a call is made for: a workspace (its slots), and a step's count of calls. */
interface Scope {
  workspaceId?: string
  countCall?: () => void
}

/** What the flow is not told of a name it may not call (noCallableAddress): the operator's log has it. */
const refusedName = (host: string, why: { code?: string | undefined; address?: string; range?: string | undefined }) =>
  log().info({ host, ...why }, 'outbound call refused: the name has no address flows may call')

export function createOutboundHttp(options: OutboundOptions = {}): OutboundHttp {
  const allow = options.allow ?? new AllowList()
  const names: NameResolver = options.resolve ? { lookup: options.resolve, close: () => undefined } : createNameResolver(options.dns)
  const limits = new WorkspaceLimits({ ...DEFAULT_OUTBOUND_LIMITS, ...options.limits })
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const defaults = {
    timeoutMs: options.defaultTimeoutMs ?? MAX_OUTBOUND_TIMEOUT_MS,
    maxResponseBytes: options.defaultMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  }
  const closing = new AbortController()
  const connect = buildConnector({ timeout: CONNECT_TIMEOUT_MS })

  const resolveHost = async (hostname: string, scope: Scope, signal?: AbortSignal): Promise<string> => {
    const host = bareHost(hostname)
    const allowed = allow.allowsHost(host)
    if (parseAddress(host)) {
      if (!allowed) assertAllowedAddress(host, host, allow)
      return host
    }
    if (!allowed && isRefusedHostName(host)) throw refused(host, 'a name reserved for the local machine or a metadata service')
    const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal
    // The slot is held until the query is over: cancelled with its caller, or answered.
    const release: Release = scope.workspaceId === undefined ? () => undefined : await limits.acquire(scope.workspaceId, 'lookups', stop)
    let addresses: string[]
    try {
      addresses = await names.lookup(host, stop)
    } catch (error) {
      const failure = lookupFailed(host, error)
      if (failure.failure === 'refused') refusedName(host, { code: (error as NodeJS.ErrnoException).code })
      throw failure
    } finally {
      release()
    }
    if (addresses.length === 0) {
      refusedName(host, { code: 'ENODATA' })
      throw lookupFailed(host, { code: 'ENODATA' })
    }
    // Every address is checked: a name with one private address among public ones is refused.
    if (!allowed) {
      for (const address of addresses) {
        try {
          assertAllowedAddress(host, address, allow)
        } catch (error) {
          refusedName(host, { address, range: refusedRangeOf(address)?.name })
          throw error
        }
      }
    }
    return addresses[0]!
  }

  /** Every call counted once, by how it ended: its answer's status class, or why it failed. */
  const countedFetch = async (scope: Scope, input: string | URL, init: OutboundFetchInit = {}): Promise<Response> => {
    let counted = false
    const ended = (outcome: string) => {
      if (counted) return
      counted = true
      metrics.outboundCalls.inc({ outcome })
    }
    try {
      return await guardedFetch(scope, input, init, ended)
    } catch (error) {
      ended(error instanceof OutboundError ? error.failure : 'network')
      throw error
    }
  }

  const guardedFetch = async (
    scope: Scope,
    input: string | URL,
    init: OutboundFetchInit,
    ended: (outcome: string) => void,
  ): Promise<Response> => {
    const timeoutMs = Math.min(init.timeoutMs ?? defaults.timeoutMs, MAX_OUTBOUND_TIMEOUT_MS)
    const maxResponseBytes = init.maxResponseBytes ?? defaults.maxResponseBytes
    const deadline = AbortSignal.timeout(timeoutMs)
    const signal = AbortSignal.any([deadline, closing.signal, ...(init.signal ? [init.signal] : [])])
    let url = parseUrl(String(input))
    let method = (init.method ?? 'GET').toUpperCase()
    let body = init.body
    let headers: Headers
    try {
      headers = new Headers(init.headers)
    } catch {
      // Its message quotes the value, which may be a key: say only that a header cannot be sent.
      throw invalidHeaders()
    }
    scope.countCall?.()
    let releaseCall: Release = () => undefined
    if (scope.workspaceId !== undefined) {
      try {
        releaseCall = await limits.acquire(scope.workspaceId, 'calls', signal)
      } catch {
        throw deadline.aborted ? timedOut(timeoutMs) : new OutboundError('network', 'The call was stopped')
      }
    }

    // An agent of its own per call: its connections are this call's, so the call's slot is held
    // until they are over (a connection attempt outlives an abandoned fetch otherwise).
    const attempts = new Set<Promise<void>>()
    const agent = new Agent({
      connect: (connectOptions, callback) => {
        const attempt = (async () => {
          let address: string
          try {
            address = await resolveHost(connectOptions.hostname, scope, signal)
          } catch (error) {
            return callback(error as Error, null)
          }
          await new Promise<void>((settled) => {
            const stop = () => socket.destroy(new OutboundError('network', 'The call was stopped'))
            // `host` keeps the name: TLS verifies the certificate against it (SNI), not the address.
            // The connector returns its socket (typed void): destroyed when the call is given up.
            const socket = connect({ ...connectOptions, hostname: address }, (error, connected) => {
              signal.removeEventListener('abort', stop)
              if (error) callback(error, null)
              else callback(null, connected!)
              settled()
            }) as unknown as Socket
            signal.addEventListener('abort', stop, { once: true })
          })
        })()
        attempts.add(attempt)
        void attempt.finally(() => attempts.delete(attempt))
      },
    })
    let done = false
    const finish = (outcome?: string) => {
      if (done) return
      done = true
      if (outcome !== undefined) ended(outcome)
      signal.removeEventListener('abort', stopped)
      void agent.destroy().catch(() => undefined)
      void Promise.allSettled([...attempts]).then(releaseCall)
    }
    const stopped = () => finish(deadline.aborted ? 'timeout' : 'stopped')
    signal.addEventListener('abort', stopped, { once: true })
    const fail = async (error: OutboundError): Promise<never> => {
      finish(error.failure)
      // The call ends when its connection attempts do: their time is the caller's.
      await Promise.allSettled([...attempts])
      throw error
    }

    for (let hop = 0; ; hop++) {
      let response: Awaited<ReturnType<typeof undiciFetch>>
      try {
        response = await undiciFetch(url, {
          method,
          headers: headers as never,
          body: body as never,
          redirect: 'manual',
          signal,
          dispatcher: agent,
        })
      } catch (error) {
        return fail(describeFailure(error, url.host, { aborted: deadline.aborted, timeoutMs }))
      }
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null) {
        try {
          const answered = `${Math.floor(response.status / 100)}xx`
          const reading = { host: url.host, deadline, timeoutMs, finish: (failure?: OutboundFailure) => finish(failure ?? answered) }
          return capped(response as unknown as Response, maxResponseBytes, reading)
        } catch (error) {
          return fail(error as OutboundError)
        }
      }
      await response.body?.cancel().catch(() => undefined)
      if (hop >= maxRedirects) return fail(new OutboundError('too-many-redirects', `More than ${maxRedirects} redirects`))
      let next: URL
      try {
        next = parseUrl(new URL(location, url).href)
      } catch (error) {
        return fail(error as OutboundError)
      }
      // Another origin gets no credentials: neither Authorization and cookies nor a key in a custom header.
      if (next.origin !== url.origin) {
        for (const name of [...headers.keys()]) if (!CROSS_ORIGIN_HEADERS.has(name)) headers.delete(name)
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET'
        body = undefined
        headers.delete('content-type')
        headers.delete('content-length')
      }
      url = next
    }
  }

  const calls = (scope: Scope): OutboundCalls => ({
    fetch: (input, init) => countedFetch(scope, input, init),
    resolveHost: (hostname, signal) => resolveHost(hostname, scope, signal),
    async request(request) {
      const response = await countedFetch(scope, request.url, {
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: request.body }),
        timeoutMs: request.timeoutMs,
        maxResponseBytes: request.maxResponseBytes,
      })
      let body: Buffer
      try {
        body = Buffer.from(await response.arrayBuffer())
      } catch (error) {
        throw error instanceof OutboundError
          ? error
          : describeFailure(error, new URL(request.url).host, { aborted: false, timeoutMs: request.timeoutMs })
      }
      return { status: response.status, headers: response.headers, url: response.url, body }
    },
  })

  return {
    ...calls({}),
    forWorkspace: (workspaceId) => calls({ workspaceId }),
    forStep(workspaceId) {
      const max = limits.limits.callsPerStep
      let made = 0
      return calls({
        workspaceId,
        countCall() {
          if (made >= max) throw new OutboundError('limit', `This step already made ${max} calls, the most one step may make`)
          made++
        },
      })
    },
    async close() {
      closing.abort()
      names.close()
    },
  }
}

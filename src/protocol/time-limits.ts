/**
 * Every wait the widget bounds, in one place: how long it waits for the service and the other
 * servers it reads from, how it retries, how long a flow script, a picture or a Wait block may
 * hold the conversation. The reference service's own limits are its configuration.
 */

/** One request (the service, a sandbox document, a font stylesheet), reading its body included. */
export const REQUEST_TIMEOUT_MS = 15_000

/**
 * Retries of a request that failed in a way that may pass: exponential backoff with jitter from
 * `baseDelayMs` up to `maxDelayMs`, a service's `Retry-After` honoured up to `maxRetryAfterMs`
 * (a visitor should not wait minutes for one answer).
 */
export const RETRY_POLICY = { retries: 3, baseDelayMs: 600, maxDelayMs: 8_000, maxRetryAfterMs: 30_000 } as const

/**
 * A flow script's run time: the default, and the bounds an embedder's `script-timeout` is kept
 * within (a shorter limit stops ordinary scripts, a longer one stalls the chat).
 */
export const SCRIPT_TIMEOUT_MS = { default: 10_000, min: 100, max: 300_000 } as const

/**
 * After the sandbox frame's load event, how long its ready message may still take: it is sent
 * while the document loads, but a frame in another process may deliver it a little later.
 */
export const SANDBOX_READY_GRACE_MS = 2_000

/**
 * How long a picture may hold the conversation back. Past it the bubble shows while the picture
 * is still on its way (it may then grow), so a stalled server never leaves the visitor stuck.
 */
export const IMAGE_WAIT_MS = 6_000

/** Longest Wait block honoured, in seconds: beyond it a visitor would think the chat is broken. */
export const MAX_WAIT_SECONDS = 600

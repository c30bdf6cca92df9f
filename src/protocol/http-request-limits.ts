/**
 * Bounds of an HTTP request block, the same whether the service sends it or the visitor's browser
 * does (an `httpRequestToExecute` action): how long it may take and how much of its answer is read.
 */

/** Seconds a request may take when its block names no `timeout`, and the most it may name. */
export const HTTP_REQUEST_TIMEOUT_SECONDS = { default: 10, max: 120 } as const

/** Largest answer read (bytes); a bigger one is a failure, so flows never map a truncated body. */
export const MAX_HTTP_RESPONSE_BYTES = 1024 * 1024

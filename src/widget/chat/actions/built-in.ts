import { type ActionRunners, lazyRunner } from './runners'

/** The runners of the contract's client actions are a chunk of their own (client-actions.ts). */
const builtIn = (name: 'redirect' | 'wait' | 'scriptNotSupported' | 'httpRequest' | 'listenForWebhook') =>
  lazyRunner(() => import('./client-actions').then((chunk) => chunk[name]))
const httpRequest = builtIn('httpRequest')

/**
 * Redirects, waits, HTTP requests from the visitor's browser (also under their older name) and
 * waits for a webhook; AI answers stream (their own chunk, with the stream reader); a handoff to
 * a person follows the live conversation (its own chunk, with its event stream). Frozen, and
 * without a script runner: the element runs scripts in its sandbox, and a page's `actions` that
 * spread these (`{ ...DEFAULT_ACTION_RUNNERS, mine }`) can neither switch that off nor change
 * what another chat runs.
 */
export const DEFAULT_ACTION_RUNNERS: ActionRunners = Object.freeze({
  redirect: builtIn('redirect'),
  wait: builtIn('wait'),
  stream: lazyRunner(() => import('./stream-answer').then((chunk) => chunk.streamAnswer), 'streaming'),
  httpRequestToExecute: httpRequest,
  webhookToExecute: httpRequest,
  listenForWebhook: builtIn('listenForWebhook'),
  handoff: lazyRunner(() => import('./handoff').then((chunk) => chunk.followHandoff)),
})

/** Scripts where nothing runs them (a conversation without the element's sandbox): reported and skipped. */
export const SCRIPTS_NOT_SUPPORTED: ActionRunners = Object.freeze({ scriptToExecute: builtIn('scriptNotSupported') })

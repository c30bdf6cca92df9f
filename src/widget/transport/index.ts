export {
  type ChatEndpoint,
  type ChatSettings,
  createFlowClient,
  type FlowClient,
  type FlowClientConfig,
  type PublishedFlow,
  type PublishedFlowView,
} from './client'
export { isSetUpRefusal, isTransportError, TransportError, type TransportErrorKind } from './errors'
export type { FetchLike } from './http'
export { newIdempotencyKey } from './idempotency'
export { isOffline, whenOnline } from './online'
export { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy, type Sleep, sleep, withRetry } from './retry'

export {
  createFlowClient,
  type ChatEndpoint,
  type ChatSettings,
  type FlowClient,
  type FlowClientConfig,
  type PublishedFlow,
  type PublishedFlowView,
} from './client'
export { TransportError, isSetUpRefusal, isTransportError, type TransportErrorKind } from './errors'
export type { FetchLike } from './http'
export { newIdempotencyKey } from './idempotency'
export { DEFAULT_RETRY_POLICY, backoffDelay, sleep, withRetry, type RetryPolicy, type Sleep } from './retry'

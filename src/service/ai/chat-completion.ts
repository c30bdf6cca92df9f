import type { AiCallFailure, AiFailure } from '../engine/core/ports'

/**
 * How a call to an AI provider fails in a way the flow is told about: the AI port's failure
 * (engine/core/ports.ts), thrown by this service's AI client and by the streams it reads.
 */
export class AiCallError extends Error implements AiCallFailure {
  constructor(
    readonly failure: AiFailure,
    message: string,
    /** The provider's HTTP status, for `status`. */
    readonly status?: number,
    /** What the provider said (may name the account): kept with the result only. */
    readonly providerMessage?: string,
  ) {
    super(message)
    this.name = 'AiCallError'
  }
}

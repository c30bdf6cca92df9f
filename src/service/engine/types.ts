import type { ChatStepResult, PublishedFlow, VariableValue } from '../../protocol/index'
import type { StepContext } from './step-context'

/**
 * The contract between the flow engine and the service around it. The engine is pure with
 * respect to storage: it takes a published flow and a session state, and returns the next state
 * and the response; the service persists both in one statement, outside which the engine runs.
 */

/** Where a session stands between two requests. Stored as JSON: keep it plain data. */
export interface SessionState {
  /** Variable values by variable id. */
  variables: Record<string, VariableValue>
  /** What the walk waits for, or null when the flow has ended. */
  awaiting: Awaiting | null
  /** Blocks executed so far (for `progress`). */
  visitedBlockCount: number
}

export type Awaiting =
  | { kind: 'input'; groupId: string; blockId: string }
  /** A `scriptToExecute` client action with `expectsDedicatedReply`; the reply sets `variableId`. */
  | { kind: 'clientReply'; groupId: string; blockId: string; variableId?: string }

/** One answer to store in the result, in the order given. */
export interface Answer {
  blockId: string
  groupId: string
  variableId?: string
  /** The answer as stored (after formatting). */
  value: string
}

export interface StepOutcome {
  state: SessionState
  /** The response body for the widget (startChat adds its own ids around it). */
  response: ChatStepResult
  /** Answers accepted by this step (empty on a retry). */
  answers: Answer[]
  /** True when the walk reached the end of the flow. */
  ended: boolean
}

/** What every step may be given besides its inputs; open for more. */
export interface StepOptions {
  /** Who the step runs for and the services it may use (a standalone context when left out). */
  context?: StepContext
}

export interface StartOptions extends StepOptions {
  /** Prefilled variables by variable *name*; names not in the flow are ignored. */
  prefilledVariables?: Record<string, string | number | boolean>
  /** Variable values by id to start from (a resumed result). Prefilled values win over them. */
  restoredVariables?: Record<string, VariableValue>
}

/** Limits for flow code run on the server (Set variable expressions, server-side Scripts). */
export interface EngineOptions {
  /** Longest a single evaluation may run before it is interrupted. */
  codeTimeoutMs?: number
  /** Most memory a single evaluation may allocate. */
  codeMemoryBytes?: number
  /** Bytes one step may produce (filled-in text, code results, the state it stores). */
  stepByteBudget?: number
  /** Bytes of JSON one step's response may carry. */
  responseByteBudget?: number
}

export interface Engine {
  start(flow: PublishedFlow, options?: StartOptions): Promise<StepOutcome>
  /** `message` is the visitor's answer to `state.awaiting`. Throws `SessionEndedError` when nothing is awaited. */
  continue(flow: PublishedFlow, state: SessionState, message: string, options?: StepOptions): Promise<StepOutcome>
}

export class SessionEndedError extends Error {
  constructor() {
    super('The conversation has already ended')
    this.name = 'SessionEndedError'
  }
}

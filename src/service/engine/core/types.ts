import type { ChatLog, ChatReplyMessage, ChatStepResult, PublishedFlow, VariableValue } from '../../../protocol/index'
import type { Position } from './flow-index'
import type { ChatCompletion, ChatCompletionRequest, SnapshotAnswer } from './ports'
import type { StepContext } from './step-context'

export type { SnapshotAnswer, StepContext }

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
  /** Linked flows entered and not yet left, outermost first: the walk is in the last one. */
  links?: LinkFrame[]
  /** Where the session's own flow goes on when its current path ends (a command's `resumeAfter`). */
  queue?: Position[]
  /** The detour a `Return` block closes (integrations.md 2.3). */
  returnMark?: ReturnMark
  /** What was said so far, kept only for flows that have a `Transcript` Set variable. */
  transcript?: TranscriptLine[]
  /** The client shows streamed AI answers (startChat's `isStreamEnabled`). */
  streamEnabled?: boolean
}

/** A linked flow the walk entered (`Typebot link`), with its own variables. */
export interface LinkFrame {
  /** The flow it runs (results of an unmerged link belong to it). */
  flowId: string
  /** Its published version; absent for the session's own flow (a `current` link). */
  versionId?: string
  variables: Record<string, VariableValue>
  /** Share the caller's result and hand variables back by name when it ends. */
  merge: boolean
  /** Its own result when not merging. */
  resultId?: string
  /** Where the caller goes on when this flow ends; absent: the caller's path ends too. */
  resume?: Position
  /** Where this flow goes on when its current path ends, before returning to the caller. */
  queue?: Position[]
}

export interface ReturnMark {
  status: 'pending' | 'called'
  /** Block of the active flow a `Return` jumps back to. */
  blockId: string
  /** A reply event's answer, re-submitted to that block when the walk is back there. */
  autoResumeMessage?: string
}

export interface TranscriptLine {
  role: 'bot' | 'user'
  text: string
}

export type Awaiting =
  | { kind: 'input'; groupId: string; blockId: string }
  /** A `scriptToExecute` client action with `expectsDedicatedReply`; the reply sets `variableId`. */
  | { kind: 'clientReply'; groupId: string; blockId: string; variableId?: string }
  /** An `httpRequestToExecute` client action: the reply is `{statusCode, data}` as JSON text. */
  | { kind: 'httpReply'; groupId: string; blockId: string }
  /** A wait-for-webhook block: an outside system's call (`deliverWebhook`) goes on. */
  | { kind: 'webhook'; groupId: string; blockId: string; waitId: string }
  /**
   * A `handoff` block: a person of the team takes the conversation; the service goes on
   * (`resumeHandoff`) when it comes back. `deadline` (ISO) is when no one answering takes the
   * "no one answered" exit; `variables` are those the person may see and set.
   */
  | {
      kind: 'handoff'
      groupId: string
      blockId: string
      handoffId: string
      deadline: string
      variables: { id: string; name: string }[]
    }
  /**
   * An AI block whose answer streams (a `stream` client action): the request waits here for
   * `streamMessage`; the recorded answer (`resumeStream`) goes on past `bubbleBlockId`.
   */
  | {
      kind: 'stream'
      groupId: string
      blockId: string
      streamId: string
      request: ChatCompletionRequest
      bubbleBlockId: string
    }

/** One answer to store in the result, in the order given. */
export interface Answer extends SnapshotAnswer {
  /** The result it belongs to when not the session's own (an unmerged linked flow's). */
  resultId?: string
}

export interface LinkedResult {
  id: string
  flowId: string
  variables: Record<string, VariableValue>
  isCompleted: boolean
}

/** A log the step wrote; `sensitive` ones are stored with the result but never sent to the widget. */
export type StepLog = ChatLog & { sensitive?: boolean }

export interface StepOutcome {
  state: SessionState
  /** The response body for the widget (startChat adds its own ids around it). */
  response: ChatStepResult
  /** Every log of the step, sensitive ones included, to store with the result. */
  logs: ChatLog[]
  /** Answers accepted by this step (empty on a retry). */
  answers: Answer[]
  /** Results of linked flows that do not merge with their caller, as they stand after this step. */
  linkedResults?: LinkedResult[]
  /** True when the walk reached the end of the flow. */
  ended: boolean
}

export interface StartOptions {
  /** Prefilled variables by variable *name*; names not in the flow are ignored. */
  prefilledVariables?: Record<string, string | number | boolean>
  /** Variable values by id to start from (a resumed result). Prefilled values win over them. */
  restoredVariables?: Record<string, VariableValue>
  /** The client shows streamed AI answers: AI blocks may stop with a `stream` action. */
  isStreamEnabled?: boolean
  /** Answers the first input the walk reaches, in the same step (startChat's `message`). */
  message?: ChatReplyMessage
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

/** An HTTP answer as flows see it: `statusCode` and `data` (parsed JSON, or the text). */
export interface HttpResponseData {
  statusCode: number
  data: unknown
}

/** An outside system's call to the result webhook, for a session waiting on a `webhook` block. */
export interface WebhookDelivery extends HttpResponseData {
  waitId: string
}

/** How a handed-over conversation came back to the flow, and the variables the person set (by name). */
export interface HandoffResume {
  handoffId: string
  outcome: 'ended' | 'unanswered' | 'left'
  variables?: Record<string, string>
}

export interface Engine {
  start(flow: PublishedFlow, options?: StartOptions, context?: StepContext): Promise<StepOutcome>
  /**
   * `message` answers `state.awaiting`, or is a command. Throws an `EngineError`: `session_ended`
   * when nothing is awaited, `unknown_command` for a command the flow has no event for,
   * `message_required` for no message where the waited-on block needs one (all but a payment input).
   */
  continue(flow: PublishedFlow, state: SessionState, message: ChatReplyMessage | undefined, context?: StepContext): Promise<StepOutcome>
  /**
   * The webhook a `webhook` block waits for has been called: its mapping runs and the walk goes
   * on. Throws an `EngineError` `not_waiting_for_webhook` when the session waits for something else.
   */
  deliverWebhook(flow: PublishedFlow, state: SessionState, delivery: WebhookDelivery, context?: StepContext): Promise<StepOutcome>
  /**
   * The answer of the AI block the session waits on (a `stream` wait), as the service recorded
   * it: mapped, and the walk goes on. Throws an `EngineError` `not_waiting_for_stream` for any other wait.
   */
  resumeStream(flow: PublishedFlow, state: SessionState, completion: ChatCompletion, context?: StepContext): Promise<StepOutcome>
  /**
   * The conversation a `handoff` block handed to a person came back: the variables the person set
   * are applied and the walk leaves by the block's edge (`ended`) or its "no one answered" exit.
   * Throws an `EngineError` `not_waiting_for_handoff` when the session waits for something else.
   */
  resumeHandoff(flow: PublishedFlow, state: SessionState, resume: HandoffResume, context?: StepContext): Promise<StepOutcome>
}

import type { ChatMessage, ClientAction } from '../../../protocol/index'
import type { SandboxLimits, SandboxOutcome, SandboxProgram } from '../sandbox/sandbox'
import { type ByteLimits, ByteMeter, DEFAULT_BYTE_LIMITS, resultText } from './byte-budget'
import type { FlowIndex, Position } from './flow-index'
import { type StepContext, standaloneStepContext } from './step-context'
import { recordBotLine } from './transcript'
import type { Answer, LinkFrame, ReturnMark, StepLog, TranscriptLine } from './types'
import { type Substitute, substitute, type Variables } from './variables'

/** A request may spend this many single-run timeouts in the sandbox in total. */
const CODE_BUDGET_TIMEOUTS = 4
/** Longest a step may wait on outgoing calls in total, whatever each block's own timeout. */
export const OUTBOUND_BUDGET_MS = 120_000

export type LogStatus = 'info' | 'warning' | 'error' | 'success'

/** Per-run sandbox limits, and the step's byte budget (defaults when left out). */
export type StepLimits = SandboxLimits & Partial<ByteLimits>

/** What a condition reads: the current variables, and the filler for a comparison's value. */
export interface ConditionScope {
  variables: Variables
  /** Fills `{{Name}}` in a comparison's value. */
  substitute: (text: string) => string
}

/** A flow the walk is in: the session's own (the root) or a linked one, with its variables. */
export interface Frame {
  index: FlowIndex
  variables: Variables
  /** Where this flow goes on when its current path ends (a command's `resumeAfter`). */
  queue: Position[]
  /** What a linked flow keeps in the session; absent for the root. */
  link?: Omit<LinkFrame, 'variables' | 'queue'>
}

/**
 * What one request to the engine accumulates while it walks: the variables it changes, the
 * flows it is in, and the messages, client actions, logs and answers of the response, in order.
 */
export class Step {
  readonly messages: ChatMessage[] = []
  readonly actions: ClientAction[] = []
  readonly logs: StepLog[] = []
  /** Answers accepted in this request, in order. */
  readonly answers: Answer[] = []
  /** The visitor's answer as the service formatted it, when that differs from what was sent. */
  lastMessageNewFormat: string | undefined
  /** Id of the last bubble block emitted in this response: client actions run right after it. */
  lastBubbleBlockId: string | undefined
  /** Blocks executed in this request (the endless-loop guard counts these). */
  executedBlocks = 0
  /**
   * Sandbox time left for this request: a flow looping over slow code must not keep the visitor
   * (and the sandbox queue) waiting for blocks × timeout, so the whole step shares a budget.
   */
  private codeTimeLeftMs: number
  /** Time left for outgoing calls (HTTP requests, e-mail) in this step. */
  outboundTimeLeftMs = OUTBOUND_BUDGET_MS
  /** E-mails sent in this step, and the last one (builders refuse a sixth, or the same one twice). */
  emailsSent = 0
  /** Recipients of the e-mails sent in this step (capped per step as well as per e-mail). */
  emailRecipients = 0
  lastEmailKey: string | undefined
  /** The client shows streamed AI answers, so an AI block may stop the step with a `stream` action. */
  streamEnabled = false

  /** The session's own flow first, then each linked flow entered; the walk is in the last. */
  readonly frames: Frame[]
  /** Linked flows left during this step that keep their own result. */
  readonly leftFrames: Frame[] = []
  returnMark: ReturnMark | undefined
  transcript: TranscriptLine[] | undefined
  readonly limits: SandboxLimits
  /** Who the step runs for, and the services it may use. */
  readonly context: StepContext
  /** Bytes produced and responded so far; throws `ByteBudgetExceeded` past the budget. */
  readonly bytes: ByteMeter
  /** Fills `{{Name}}` placeholders with the current values (bound: safe to pass around). */
  readonly substitute: Substitute
  readonly conditionScope: ConditionScope

  constructor(index: FlowIndex, variables: Variables, limits: StepLimits, context: StepContext = standaloneStepContext()) {
    this.frames = [{ index, variables, queue: [] }]
    this.limits = limits
    this.context = context
    this.bytes = new ByteMeter(
      {
        stepBytes: limits.stepBytes ?? DEFAULT_BYTE_LIMITS.stepBytes,
        responseBytes: limits.responseBytes ?? DEFAULT_BYTE_LIMITS.responseBytes,
      },
      this,
    )
    const count = (text: string) => this.bytes.produce(text)
    // The walk may enter a linked flow: always fill from the flow it is in now.
    const fill = (text: string, encode?: (value: string) => string) => {
      count(text)
      return substitute(text, this.index, this.variables, encode, count)
    }
    this.substitute = fill
    const step = this
    this.conditionScope = {
      get variables() {
        return step.variables
      },
      substitute: (text) => fill(text),
    }
    this.codeTimeLeftMs = limits.timeoutMs * CODE_BUDGET_TIMEOUTS
  }

  /** The flow the walk is in. */
  get frame(): Frame {
    return this.frames[this.frames.length - 1]!
  }
  get index(): FlowIndex {
    return this.frame.index
  }
  get variables(): Variables {
    return this.frame.variables
  }
  get root(): Frame {
    return this.frames[0]!
  }

  /** The result answers and ids of the current flow belong to. */
  get resultId(): string | undefined {
    for (let i = this.frames.length - 1; i > 0; i--) {
      const link = this.frames[i]!.link
      if (link && !link.merge) return link.resultId
    }
    return this.context.resultId || undefined
  }

  /** Runs code in the sandbox within both the per-run limit and what is left of the step's budget. */
  async runCode(program: SandboxProgram): Promise<SandboxOutcome> {
    if (this.codeTimeLeftMs <= 0) {
      return { status: 'error', message: 'not run, this step already used its time for code' }
    }
    const timeoutMs = Math.min(this.limits.timeoutMs, this.codeTimeLeftMs)
    const { outcome, runMs } = await this.context.runCode(program, { timeoutMs, memoryBytes: this.limits.memoryBytes })
    // A run is charged at most its allowance: overshooting it is the machine's load, not the flow's code.
    this.codeTimeLeftMs -= Math.min(timeoutMs, Math.max(1, runMs))
    if (outcome.status === 'ok') this.bytes.produce(resultText(outcome.value))
    return outcome
  }

  addMessage(message: ChatMessage): void {
    this.bytes.respond(message)
    this.messages.push(message)
    this.lastBubbleBlockId = message.id
    if (this.transcript) recordBotLine(this.transcript, message)
  }

  addAction(action: ClientAction): void {
    const tagged = this.lastBubbleBlockId === undefined ? action : { ...action, lastBubbleBlockId: this.lastBubbleBlockId }
    this.bytes.respond(tagged)
    this.actions.push(tagged)
  }

  /** A block the walk passes over without running it: the log names its id and type. */
  skip(block: { id: string; type: string }, status: LogStatus, description: string, details: Record<string, unknown> = {}): void {
    this.log(status, description, { blockId: block.id, type: block.type, ...details })
  }

  log(status: LogStatus, description: string, details?: Record<string, unknown>, options: { sensitive?: boolean } = {}): void {
    const entry: StepLog = details === undefined ? { status, description } : { status, description, details }
    if (options.sensitive) entry.sensitive = true
    this.logs.push(entry)
  }

  /** The clock of the request (tests pin it). */
  now(): Date {
    return this.context.now()
  }
}

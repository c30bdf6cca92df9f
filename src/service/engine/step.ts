import type { ChatLog, ChatMessage, ClientAction } from '../../protocol/index'
import type { Substitute } from './bubbles'
import { type ByteLimits, ByteMeter, DEFAULT_BYTE_LIMITS, resultText } from './byte-budget'
import type { ConditionScope } from './conditions'
import type { FlowIndex } from './flow-index'
import type { SandboxLimits, SandboxOutcome, SandboxProgram } from './sandbox'
import { type StepContext, standaloneStepContext } from './step-context'
import type { Answer } from './types'
import { substitute, type Variables } from './variables'

/** A request may spend this many single-run timeouts in the sandbox in total. */
const CODE_BUDGET_TIMEOUTS = 4

export type LogStatus = 'info' | 'warning' | 'error' | 'success'

/** Per-run sandbox limits, and the step's byte budget (defaults when left out). */
export type StepLimits = SandboxLimits & Partial<ByteLimits>

/**
 * What one request to the engine accumulates while it walks: the variables it changes and
 * the messages, client actions and logs of the response, in order.
 */
export class Step {
  readonly messages: ChatMessage[] = []
  readonly actions: ClientAction[] = []
  readonly logs: ChatLog[] = []
  /** Answers accepted in this request, in order. */
  readonly answers: Answer[] = []
  /** Id of the last bubble block emitted in this response: client actions run right after it. */
  lastBubbleBlockId: string | undefined
  /** Blocks executed in this request (the endless-loop guard counts these). */
  executedBlocks = 0
  /**
   * Sandbox time left for this request: a flow looping over slow code must not keep the visitor
   * (and the sandbox queue) waiting for blocks × timeout, so the whole step shares a budget.
   */
  private codeTimeLeftMs: number

  readonly index: FlowIndex
  readonly variables: Variables
  readonly limits: SandboxLimits
  /** Who the step runs for, and the services it may use. */
  readonly context: StepContext
  /** Bytes produced and responded so far; throws `ByteBudgetExceeded` past the budget. */
  readonly bytes: ByteMeter
  /** Fills `{{Name}}` placeholders with the current values (bound: safe to pass around). */
  readonly substitute: Substitute
  readonly conditionScope: ConditionScope

  constructor(index: FlowIndex, variables: Variables, limits: StepLimits, context: StepContext = standaloneStepContext()) {
    this.index = index
    this.variables = variables
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
    const fill = (text: string, escape?: (value: string) => string) => {
      count(text)
      return substitute(text, index, variables, escape, count)
    }
    this.substitute = fill
    this.conditionScope = { variables, substitute: (text) => fill(text) }
    this.codeTimeLeftMs = limits.timeoutMs * CODE_BUDGET_TIMEOUTS
  }

  /** Runs code in the sandbox within both the per-run limit and what is left of the step's budget. */
  async runCode(program: SandboxProgram): Promise<SandboxOutcome> {
    if (this.codeTimeLeftMs <= 0) {
      return { status: 'error', message: 'not run, this step already used its time for code' }
    }
    const timeoutMs = Math.min(this.limits.timeoutMs, this.codeTimeLeftMs)
    const { outcome, runMs } = await this.context.runCode(program, { timeoutMs, memoryBytes: this.limits.memoryBytes })
    this.codeTimeLeftMs -= Math.max(1, runMs)
    if (outcome.status === 'ok') this.bytes.produce(resultText(outcome.value))
    return outcome
  }

  addMessage(message: ChatMessage): void {
    this.bytes.respond(message)
    this.messages.push(message)
    this.lastBubbleBlockId = message.id
  }

  addAction(action: ClientAction): void {
    const tagged = this.lastBubbleBlockId === undefined ? action : { ...action, lastBubbleBlockId: this.lastBubbleBlockId }
    this.bytes.respond(tagged)
    this.actions.push(tagged)
  }

  log(status: LogStatus, description: string, details?: Record<string, unknown>): void {
    this.logs.push(details === undefined ? { status, description } : { status, description, details })
  }
}

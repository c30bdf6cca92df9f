import type { ChatLog, ChatMessage, ClientAction } from '../../protocol/index'
import type { Substitute } from './bubbles'
import type { ConditionScope } from './conditions'
import type { FlowIndex } from './flow-index'
import { runInSandbox, type SandboxLimits, type SandboxOutcome, type SandboxProgram } from './sandbox'
import { substitute, type Variables } from './variables'

/** A request may spend this many single-run timeouts in the sandbox in total. */
const CODE_BUDGET_TIMEOUTS = 4

export type LogStatus = 'info' | 'warning' | 'error' | 'success'

/**
 * What one request to the engine accumulates while it walks: the variables it changes and
 * the messages, client actions and logs of the response, in order.
 */
export class Step {
  readonly messages: ChatMessage[] = []
  readonly actions: ClientAction[] = []
  readonly logs: ChatLog[] = []
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
  /** Fills `{{Name}}` placeholders with the current values (bound: safe to pass around). */
  readonly substitute: Substitute
  readonly conditionScope: ConditionScope

  constructor(index: FlowIndex, variables: Variables, limits: SandboxLimits) {
    this.index = index
    this.variables = variables
    this.limits = limits
    this.substitute = (text, escape) => substitute(text, index, variables, escape)
    this.conditionScope = { variables, substitute: (text) => substitute(text, index, variables) }
    this.codeTimeLeftMs = limits.timeoutMs * CODE_BUDGET_TIMEOUTS
  }

  /** Runs code in the sandbox within both the per-run limit and what is left of the step's budget. */
  async runCode(program: SandboxProgram): Promise<SandboxOutcome> {
    if (this.codeTimeLeftMs <= 0) {
      return { status: 'error', message: 'not run, this step already used its time for code' }
    }
    const timeoutMs = Math.min(this.limits.timeoutMs, this.codeTimeLeftMs)
    const { outcome, runMs } = await runInSandbox(program, { timeoutMs, memoryBytes: this.limits.memoryBytes })
    this.codeTimeLeftMs -= Math.max(1, runMs)
    return outcome
  }

  addMessage(message: ChatMessage): void {
    this.messages.push(message)
    this.lastBubbleBlockId = message.id
  }

  addAction(action: ClientAction): void {
    this.actions.push(
      this.lastBubbleBlockId === undefined ? action : { ...action, lastBubbleBlockId: this.lastBubbleBlockId },
    )
  }

  log(status: LogStatus, description: string, details?: Record<string, unknown>): void {
    this.logs.push(details === undefined ? { status, description } : { status, description, details })
  }
}

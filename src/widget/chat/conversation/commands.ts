/**
 * A host page's commands (`sendCommand(name)`): the flow's matching `command` event runs, as
 * `{type: "command", command}` through continueChat. A chunk of its own, loaded on the first one.
 */
import { listenForWebhookSchema } from '../../../protocol/action-payloads'
import { type ChatStepResult, type ClientAction, type CommandReply, MAX_COMMAND_LENGTH } from '../../../protocol/chat'
import { listenForWebhook } from '../../transport/long-poll'
import type { FlowChatErrorDetail } from '../events/events'
import { type CommandError, commandError, describeFailure, isRejection, refuseCommand } from '../events/failures'
import type { ConversationState } from '../state/conversation-state'
import { isWaitingForWebhook, type Next, type Pending, type Stage } from '../state/stage'
import { deliverTurn, type TurnContext, turnFailed } from './turns'

type Task = (signal: AbortSignal) => Promise<Next>

/** What the commands need of their conversation. */
export interface CommandHost {
  state: ConversationState
  context: TurnContext
  /** Runs a task of the conversation (failures shown like a turn's). */
  run(task: Task): void
  /** Stops what the conversation is doing (a webhook wait): the next `run` gets a new signal. */
  stop(): void
}

export interface Commands {
  send(name: string): Promise<void>
  /** The conversation is reset or removed: commands not yet sent are refused. */
  cancel(): void
}

interface Queued {
  name: string
  resolve(): void
  reject(error: CommandError): void
}

/** Stages that take no command, and why (the caller's promise rejects with it). */
const REFUSED: Partial<Record<Stage['tag'], string>> = {
  idle: 'the chat has not started',
  ended: 'the conversation has ended',
  redirected: 'the chat has left this page',
  failed: 'the chat is showing an error',
}

/**
 * Commands one at a time, each when the chat is free for it: at once while an input waits or the
 * chat waits for a webhook; after the answer in flight (or the step playing) otherwise, so an
 * answer is never overtaken, lost or sent twice. The input hides while a command is on its way;
 * a command the service refuses (no event has that name: 400) changes nothing in the chat.
 */
export function createCommands(host: CommandHost): Commands {
  const { state, context } = host
  const queue: Queued[] = []
  /** The command on its way, until the service answered it. */
  let sending: Queued | undefined

  const refuse = (item: Queued, why: string) => refuseCommand(context.emit, item.name, why).catch(item.reject)

  function pump() {
    if (sending || queue.length === 0) return
    const stage = state.stage.peek()
    if (stage.tag === 'waiting-input' || isWaitingForWebhook(stage)) return dispatch(queue.shift()!, stage)
    const why = REFUSED[stage.tag]
    if (why) for (const item of queue.splice(0)) refuse(item, why)
    // Otherwise the chat is busy (loading, playing, sending): the stage's next change pumps again.
  }
  const unsubscribe = state.stage.subscribe(() => queueMicrotask(pump))

  function dispatch(item: Queued, stage: Stage) {
    sending = item
    let settled = false
    const settle = (error?: FlowChatErrorDetail) => {
      if (settled) return
      settled = true
      if (sending === item) sending = undefined
      if (error) item.reject(commandError(error))
      else item.resolve()
      queueMicrotask(pump)
    }
    const message: CommandReply = { type: 'command', command: item.name }
    /** The command's reply; `refused`: what follows when the service refuses it (the chat as it was). */
    const pending = (refused: () => Next): Pending => {
      const reply: Pending = {
        message,
        key: context.newKey(),
        entry: null,
        answered: null,
        failed(error) {
          // A command the service refused (no event has that name) changes nothing in the chat.
          if (!isRejection(error)) {
            const failure = describeFailure(error)
            settle(failure.detail)
            return turnFailed(state, context, reply, error, failure)
          }
          const detail: FlowChatErrorDetail = {
            ...describeFailure(error).detail,
            code: 'command-rejected',
            message: (error as Error).message,
          }
          settle(detail)
          context.emit('flowchat:error', detail)
          return refused()
        },
      }
      return reply
    }
    /** Sends the command's reply; once the service took it, the caller's promise resolves. */
    const deliver = async (reply: Pending, signal: AbortSignal): Promise<Next> => {
      const next = await deliverTurn(state, context, reply, signal)
      settle()
      return next
    }
    if (stage.tag === 'waiting-input') {
      // What the visitor typed comes back if the command's path returns to this input.
      const draft = stage.input.draft.peek()
      if (draft) state.noteAnswer(stage.input.input.id, draft)
      const reply = pending(() => {
        state.enter(stage)
        return null
      })
      host.run((signal) => deliver(reply, signal))
      return
    }
    if (stage.tag !== 'running-action') return
    const { action } = stage
    const reply = pending(() => ({ play: { clientSideActions: [action] } }))
    host.stop()
    host.run(async (signal) => {
      const arrived = await webhookArrived(action, signal)
      if (!arrived) return deliver(reply, signal)
      // The flow went on meanwhile: its step plays first, the command goes when the chat is free again.
      sending = undefined
      queue.unshift(item)
      return { play: arrived }
    })
  }

  /** The step of a webhook that came while the long poll was being stopped, if one did. */
  async function webhookArrived(action: ClientAction, signal: AbortSignal): Promise<ChatStepResult | undefined> {
    // The wait's runner read this payload already (the chat would have failed otherwise).
    const waitId = listenForWebhookSchema.safeParse(action.listenForWebhook).data?.waitId
    if (!waitId) return undefined
    try {
      const answer = await listenForWebhook(context.client.chat, state.session.peek().id, waitId, signal, 0)
      return answer.status === 'continued' && answer.step ? answer.step : undefined
    } catch (error) {
      if (signal.aborted) throw error
      return undefined
    }
  }

  return {
    send(name) {
      return new Promise<void>((resolve, reject) => {
        const item: Queued = { name, resolve, reject }
        if (typeof name !== 'string' || name.length === 0 || name.length > MAX_COMMAND_LENGTH) {
          return refuse(item, `a command is a name of 1 to ${MAX_COMMAND_LENGTH} characters`)
        }
        queue.push(item)
        pump()
      })
    },
    cancel() {
      unsubscribe()
      // The one on its way may or may not have reached the service: its promise cannot say.
      const unsettled = sending ? [sending, ...queue.splice(0)] : queue.splice(0)
      sending = undefined
      for (const item of unsettled) refuse(item, 'the chat was reset or removed')
    },
  }
}

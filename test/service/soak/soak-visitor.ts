import { type ChatInput, type ChatStepResult, chatStepResultSchema, startChatResponseSchema } from '../../../src/protocol/index'
import { createStreamParser } from '../../../src/protocol/stream'
import { fileAnswer, uploadedFileSchema } from '../../../src/protocol/uploads'

/** One answer a visitor gave: the step it answered and the value the service is to record. */
export interface SentAnswer {
  blockId: string
  value: string
}

export interface VisitOutcome {
  resultId: string | undefined
  /** `finished`: the flow ended; `stuck`: the deadline passed first; `failed`: a refusal no retry could help. */
  state: 'finished' | 'stuck' | 'failed'
  answers: SentAnswer[]
  /** Each answer's time from first try to its accepted response (retries included), ms. */
  answerMs: number[]
  /** Extra tries the faults cost. */
  retries: number
  /** startChat tries beyond the first: one whose answer was lost left a result nobody continued. */
  startRetries: number
  /** What the visitor would have seen as an error (the refusal that ended it). */
  error?: string
}

export interface VisitorOptions {
  /** Where the visitor's requests go (the faulting proxy). */
  base: string
  flowId: string
  /** The visitor's number: its address and its answers are derived from it. */
  index: number
  /** After this, the conversation counts as stuck. */
  deadlineMs: number
}

/** Answers a service may give to a request whose retry can still succeed. */
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504])

class Refused extends Error {}

/**
 * A visitor as the widget behaves: starts a chat, answers each input it is shown, follows a
 * streamed AI answer, and when a request fails (connection cut, 503, an answer still being
 * worked on) sends it again with the same Idempotency-Key, backing off, until it is answered or
 * the deadline passes. It keeps what it sent, for the check against what the service recorded.
 */
export async function visit(options: VisitorOptions): Promise<VisitOutcome> {
  const deadline = Date.now() + options.deadlineMs
  const outcome: VisitOutcome = { resultId: undefined, state: 'stuck', answers: [], answerMs: [], retries: 0, startRetries: 0 }
  const address = `10.${(options.index >> 16) & 255}.${(options.index >> 8) & 255}.${options.index & 255}`

  /** One request until it is answered 2xx; the same key on every try. */
  const send = async (path: string, body: BodyInit, headers: Record<string, string>): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > deadline) throw new Error('deadline')
      if (attempt > 0) {
        outcome.retries++
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 100 * 2 ** Math.min(attempt, 5))))
      }
      try {
        const response = await fetch(`${options.base}${path}`, {
          method: 'POST',
          headers: { 'x-forwarded-for': address, ...headers },
          body,
          signal: AbortSignal.timeout(Math.max(1, Math.min(70_000, deadline - Date.now()))),
        })
        if (response.ok) {
          // The body too: a cut after the headers is a failed try.
          const bytes = await response.arrayBuffer()
          return new Response(bytes, { status: response.status, headers: response.headers })
        }
        const text = await response.text()
        if (!RETRYABLE.has(response.status)) throw new Refused(`${response.status} ${text.slice(0, 300)}`)
      } catch (error) {
        if (error instanceof Refused) throw error
        // A cut connection or a timeout: try again.
      }
    }
  }
  const json = (body: unknown, key?: string) => ({
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  })

  try {
    // startChat has no key: a start whose answer was lost leaves a result behind, as in a browser.
    const startTries = outcome.retries
    const started = startChatResponseSchema.parse(
      await (await send(`/v1/flows/${options.flowId}/startChat`, ...args(json({ isStreamEnabled: true })))).json(),
    )
    outcome.startRetries = outcome.retries - startTries
    outcome.resultId = started.resultId
    const session = `/v1/sessions/${encodeURIComponent(started.sessionId)}`
    let step: ChatStepResult = started
    for (let turn = 0; turn < 50; turn++) {
      if (step.clientSideActions?.some((action) => action.type === 'stream')) {
        await readStream(() => send(`${session}/streamMessage`, ...args(json({}))))
        step = chatStepResultSchema.parse(
          await (await send(`${session}/continueChat`, ...args(json({}, `v${options.index}-t${turn}`)))).json(),
        )
        continue
      }
      if (!step.input) {
        outcome.state = 'finished'
        return outcome
      }
      const began = Date.now()
      const message = await answerFor(step.input, options.index, (name, file) =>
        send(`${session}/uploads?name=${encodeURIComponent(name)}`, ...args({ body: file, headers: { 'content-type': 'text/plain' } })),
      )
      const reply = await send(`${session}/continueChat`, ...args(json({ message }, `v${options.index}-t${turn}`)))
      outcome.answers.push({ blockId: step.input.id, value: typeof message === 'string' ? message : message.text })
      outcome.answerMs.push(Date.now() - began)
      step = chatStepResultSchema.parse(await reply.json())
    }
    throw new Refused('more than 50 turns')
  } catch (error) {
    if (error instanceof Refused) {
      outcome.state = 'failed'
      outcome.error = error.message
    }
    return outcome
  }
}

const args = (request: { body: BodyInit; headers: Record<string, string> }) => [request.body, request.headers] as const

/** What this visitor answers to `input`; a file input uploads its file first. */
async function answerFor(
  input: ChatInput,
  index: number,
  upload: (name: string, file: Blob) => Promise<Response>,
): Promise<string | ReturnType<typeof fileAnswer>> {
  switch (input.type) {
    case 'choice input':
      return input.items?.[index % (input.items.length || 1)]?.content ?? 'ok'
    case 'number input':
      return String(20 + (index % 60))
    case 'rating input':
      return String(1 + (index % 5))
    case 'email input':
      return `visitor-${index}@example.test`
    case 'file input': {
      const response = await upload(`receipt-${index}.txt`, new Blob([`receipt of visitor ${index}\n`]))
      return fileAnswer([uploadedFileSchema.parse(await response.json()).url])
    }
    default:
      return `visitor ${index} says hello`
  }
}

/** Reads a streamed answer to its finish part, starting again on another try if the stream is cut. */
async function readStream(open: () => Promise<Response>): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const parser = createStreamParser()
    const response = await open()
    const parts = [...parser.push(new Uint8Array(await response.arrayBuffer())), ...parser.end()]
    if (parts.some((part) => part.type === 'finish')) return
  }
  throw new Refused('the AI answer never finished')
}

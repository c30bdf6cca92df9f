import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'

/**
 * A local OpenAI-compatible server speaking the real API's wire format: `POST /v1/chat/completions`
 * answers a `chat.completion` object, or with `stream: true` server-sent events of
 * `chat.completion.chunk` objects (a role chunk, one chunk per text part, a finish chunk, the
 * usage chunk when `stream_options.include_usage`, then `data: [DONE]`). What it does next is
 * set with `script`: the text parts, a status (401, 429, 500) with the API's error body, a
 * stall (never another byte), a dropped connection mid-stream, or a pause until `release()`.
 */
export interface CompletionScript {
  parts?: string[]
  status?: number
  /** After this many text parts, send nothing more and never finish. */
  stallAfter?: number
  /** After this many text parts, drop the connection. */
  dropAfter?: number
  /** After this many text parts (or each of these counts), wait for `release()`. */
  pauseAfter?: number | number[]
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
}

export interface ReceivedCompletion {
  authorization: string | undefined
  body: {
    model: string
    messages: { role: string; content: string }[]
    temperature?: number
    stream?: boolean
    stream_options?: { include_usage?: boolean }
  }
}

export interface OpenAiTestServer {
  origin: string
  /** `${origin}/v1`, what OPENAI_BASE_URL or credentials name. */
  baseUrl: string
  received: ReceivedCompletion[]
  /** What the next requests get, in order; the last one stays for any further request. */
  script(...scripts: CompletionScript[]): void
  /** Lets paused streams go on. */
  release(): void
  /** When each text part of the latest stream left the server (performance.now()). */
  sentAt: number[]
  close(): Promise<void>
}

const DEFAULT_USAGE = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }

export async function startOpenAiTestServer(): Promise<OpenAiTestServer> {
  const received: ReceivedCompletion[] = []
  let scripts: CompletionScript[] = [{ parts: ['Hello', ' there!'] }]
  let releases: (() => void)[] = []
  let sentAt: number[] = []
  const open = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      open.add(res)
      res.on('close', () => open.delete(res))
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return apiError(res, 404, 'Unknown request URL', 'invalid_request_error')
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedCompletion['body']
      received.push({ authorization: req.headers.authorization, body })
      const script = scripts.length > 1 ? scripts.shift()! : scripts[0]!
      if (script.status === 401)
        return apiError(res, 401, 'Incorrect API key provided: sk-te****1234.', 'invalid_request_error', 'invalid_api_key')
      if (script.status === 429) return apiError(res, 429, 'Rate limit reached for requests', 'requests', 'rate_limit_exceeded')
      if (script.status) return apiError(res, script.status, 'The server had an error while processing your request.', 'server_error')
      const base = { id: 'chatcmpl-test', created: 1_760_000_000, model: body.model, system_fingerprint: 'fp_test' }
      const parts = script.parts ?? []
      const usage = script.usage ?? DEFAULT_USAGE
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: parts.join(''), refusal: null, annotations: [] },
                logprobs: null,
                finish_reason: 'stop',
              },
            ],
            usage,
          }),
        )
      }
      void stream(res, base, script, body.stream_options?.include_usage === true)
    })
  })

  async function stream(res: ServerResponse, base: object, script: CompletionScript, includeUsage: boolean): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' })
    const send = (choices: unknown[], usage: unknown = null) => {
      const chunk = { ...base, object: 'chat.completion.chunk', choices, ...(includeUsage ? { usage } : {}) }
      res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    }
    const delta = (value: object, finish: string | null = null) => ({ index: 0, delta: value, logprobs: null, finish_reason: finish })
    sentAt = []
    send([delta({ role: 'assistant', content: '', refusal: null })])
    const parts = script.parts ?? []
    const pauses = ([] as number[]).concat(script.pauseAfter ?? [])
    for (let i = 0; i < parts.length; i++) {
      if (i === script.stallAfter) return
      if (i === script.dropAfter) return void res.destroy()
      if (pauses.includes(i)) await new Promise<void>((resolve) => releases.push(resolve))
      if (res.destroyed) return
      send([delta({ content: parts[i] })])
      sentAt.push(performance.now())
      // Let each part leave on its own, as a provider's do.
      await new Promise((resolve) => setImmediate(resolve))
    }
    send([delta({}, 'stop')])
    if (includeUsage) send([], script.usage ?? DEFAULT_USAGE)
    res.end('data: [DONE]\n\n')
  }

  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    baseUrl: `${origin}/v1`,
    received,
    script: (...next) => void (scripts = next),
    release() {
      for (const release of releases) release()
      releases = []
    },
    get sentAt() {
      return sentAt
    },
    async close() {
      for (const release of releases) release()
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function apiError(res: ServerResponse, status: number, message: string, type: string, code: string | null = null): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ error: { message, type, param: null, code } }))
}

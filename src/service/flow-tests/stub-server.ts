import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AiStub, HttpStub } from '../../protocol/flow-tests'

/**
 * The loopback server a flow test run starts: HTTP request blocks' calls reach it instead of
 * their URL (stub-ports.ts sends `url` as `/http/<url>`), and AI blocks reach its
 * OpenAI-compatible `/ai/v1/chat/completions`. It answers from the running scenario's stubs and
 * notes what it could not answer (a call no stub matches, an AI block with no reply left), which
 * fails the scenario at the step that made the call.
 */
export interface StubServer {
  origin: string
  /** Where AI blocks are sent (an OpenAI-compatible base URL). */
  aiBaseUrl: string
  /** The scenario whose stubs answer from now on; its notes start empty. */
  use(stubs: { http?: HttpStub[]; ai?: AiStub[] }): void
  /** What went unanswered since the last call, then forgotten. */
  takeProblems(): string[]
  close(): Promise<void>
}

export const HTTP_STUB_PATH = '/http/'
const AI_PATH = '/ai/v1/chat/completions'
/** A request body the stub reads at most (an AI prompt, a block's JSON body). */
const MAX_REQUEST_BYTES = 1024 * 1024

export async function startStubServer(): Promise<StubServer> {
  let http: HttpStub[] = []
  let ai: AiStub[] = []
  let problems: string[] = []

  const server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        if (body === undefined) return send(res, 413, { message: 'The request is larger than a flow test reads' })
        const path = req.url ?? '/'
        if (path.startsWith(HTTP_STUB_PATH))
          return answerHttp(req.method ?? 'GET', decodeURIComponent(path.slice(HTTP_STUB_PATH.length)), res)
        if (req.method === 'POST' && path === AI_PATH) return answerAi(body, res)
        send(res, 404, { message: 'Not a flow test stub' })
      },
      () => res.destroy(),
    )
  })

  const answerHttp = (method: string, url: string, res: ServerResponse) => {
    const stub = http.find((candidate) => stubMatches(candidate, method, url))
    if (!stub) {
      problems.push(`an HTTP call with no stub: ${method} ${url}`)
      return send(res, 404, { message: `No stub for ${method} ${url}` })
    }
    const headers = { ...stub.headers }
    const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
    if (typeof stub.body === 'string') {
      if (!hasType) headers['content-type'] = 'text/plain; charset=utf-8'
      res.writeHead(stub.status ?? 200, headers)
      return void res.end(stub.body)
    }
    if (!hasType) headers['content-type'] = 'application/json'
    res.writeHead(stub.status ?? 200, headers)
    res.end(stub.body === undefined ? '' : JSON.stringify(stub.body))
  }

  const answerAi = (body: Buffer, res: ServerResponse) => {
    const reply = ai.shift()
    let model = 'flow-test'
    try {
      model = String((JSON.parse(body.toString('utf8')) as { model?: unknown }).model ?? model)
    } catch {}
    if (!reply) {
      problems.push('an AI block asked for an answer, and the scenario has no stubbed AI reply left')
      return send(res, 500, { error: { message: 'No stubbed AI reply left', type: 'server_error' } })
    }
    send(res, 200, {
      id: 'chatcmpl-flow-test',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.reply }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    aiBaseUrl: `${origin}/ai/v1`,
    use(stubs) {
      http = [...(stubs.http ?? [])]
      ai = [...(stubs.ai ?? [])]
      problems = []
    },
    takeProblems() {
      const taken = problems
      problems = []
      return taken
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** The stub for a call: its method (any when left out) and URL (with the query only when the stub gives one). */
export function stubMatches(stub: HttpStub, method: string, url: string): boolean {
  if (stub.method !== undefined && stub.method !== method.toUpperCase()) return false
  const called = parsed(url)
  const wanted = parsed(stub.url)
  if (!called || !wanted) return false
  if (wanted.search === '') called.search = ''
  called.hash = ''
  wanted.hash = ''
  return called.href === wanted.href
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The request's body, or undefined past the cap. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_REQUEST_BYTES ? undefined : Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

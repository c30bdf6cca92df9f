import { describe, expect, it } from 'vitest'
import { errorBodySchema, startChatResponseSchema } from '../../../src/protocol/index'
import { createStreamParser } from '../../../src/protocol/stream'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import type { Database, Queryable } from '../../../src/service/store/database'
import { type AiServiceOptions, aiFlow, aiService, say, startAiChat, streamMessage, texts, useAiServices } from '../helpers/ai-flows'
import { useTestDatabase } from '../helpers/database'
import { OTHER_WORKSPACE, type TestService } from '../helpers/service'

/**
 * What one visitor (or one tenant) can make a streamed AI answer cost the service: its size, the
 * provider calls streaming at once for a workspace, the replays of a finished answer, and the
 * bytes the service writes to its database while an answer streams.
 */

const db = useTestDatabase()
const ai = useAiServices(db)
const calls = () => ai.server.received.length
const noReplayLimit = { perMinute: 0, burst: 1 }

/** A chat whose AI block waits for its answer to be streamed. */
async function waitingChat(svc: TestService, flow: unknown = aiFlow()) {
  const chat = await startAiChat(svc, flow, true)
  expect((await say(svc, chat.sessionId, { message: 'Tell me everything' })).body.clientSideActions).toEqual([
    { type: 'stream', stream: true, expectsDedicatedReply: true },
  ])
  return chat
}

/** aiFlow, whose bubble after the answer does not repeat it (the answer shows once, streamed). */
function quietFlow() {
  const flow = aiFlow()
  flow.groups[2]!.blocks[2] = { id: 'tokens', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Answered.' }] }] } }
  return flow
}

describe('the size of a streamed answer', () => {
  it("is cut at the response byte budget: the provider is left, the cut text recorded, the flow goes on and the result's logs say so", async () => {
    const budget = 32 * 1024
    const svc = await ai.service({ config: { stepBudgets: { ...DEFAULT_CONFIG.stepBudgets, responseBytes: budget } } })
    // 2 MiB of text in 8 KiB parts, four bytes per character (an emoji), so a cut could split one.
    const part = '👋'.repeat(2048)
    ai.server.script({ parts: Array.from({ length: 256 }, () => part) })
    const chat = await waitingChat(svc, quietFlow())
    const read = await streamMessage(svc, chat.sessionId)
    const sent = Buffer.byteLength(read.text)
    console.log(`stream size: provider offered ${256 * Buffer.byteLength(part)} B, the visitor got ${sent} B (budget ${budget} B)`)
    expect(read.status).toBe(200)
    expect(sent).toBeLessThanOrEqual(budget)
    expect(sent).toBeGreaterThan(budget - 4)
    expect(read.text).toBe('👋'.repeat(sent / 4))
    expect(read.parts.at(-1)).toEqual({ type: 'finish', finishReason: 'length' })

    // The record is the cut text: a replay and the flow see the same.
    expect((await streamMessage(svc, chat.sessionId)).text).toBe(read.text)
    const next = await say(svc, chat.sessionId, {})
    expect(next.status).toBe(200)
    expect(texts(next.body)).toEqual(['Answered.'])
    expect(calls()).toBeGreaterThan(0)
    const logs = await svc.call('GET', `/v1/flows/${chat.flowId}/results/${chat.resultId}/logs`, { token: svc.tokens.secret })
    expect(logs.body.logs).toContainEqual(
      expect.objectContaining({
        status: 'warning',
        description: `The AI answer was cut at ${budget} bytes, the most one answer may carry`,
      }),
    )
  })
})

describe('streams running at once in a workspace', () => {
  it('are capped across processes: one more is a 429 with the error body and Retry-After, while other workspaces stream on', async () => {
    const config = { aiStreams: { perWorkspace: 2, replays: noReplayLimit } }
    const svc = await ai.service({ config })
    const sameDatabase = await ai.service({ config, schema: svc.schema })
    ai.server.script({ parts: ['Slow', ' answer'], pauseAfter: 0 })
    const chats = [await waitingChat(svc), await waitingChat(svc), await waitingChat(svc)]
    const before = calls()
    const running = [streamMessage(svc, chats[0]!.sessionId), streamMessage(svc, chats[1]!.sessionId)]
    await until(() => calls() === before + 2)

    const refused = await streamMessage(svc, chats[2]!.sessionId)
    expect(refused.status).toBe(429)
    expect(errorBodySchema.parse(refused.body).error.code).toBe('rate_limited')
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect((await streamMessage(sameDatabase, chats[2]!.sessionId)).status).toBe(429)
    expect(calls()).toBe(before + 2)

    // The cap is the workspace's own: another tenant's visitor is not kept waiting.
    const other = await otherWorkspaceChat(svc)
    const elsewhere = streamMessage(svc, other.sessionId)
    await until(() => calls() === before + 3)

    ai.server.release()
    for (const read of await Promise.all([...running, elsewhere])) expect(read.text).toBe('Slow answer')
    // Streams that ended free their place.
    ai.server.script({ parts: ['Your turn'] })
    expect((await streamMessage(svc, chats[2]!.sessionId)).text).toBe('Your turn')
  })
})

describe('replays of an answer', () => {
  it('are rate limited per answer, on the clock of the service, and never call the provider', async () => {
    const svc = await ai.service({ config: { aiStreams: { perWorkspace: 10, replays: { perMinute: 1, burst: 2 } } } })
    ai.server.script({ parts: ['Recorded', ' once'] })
    const chat = await waitingChat(svc)
    expect((await streamMessage(svc, chat.sessionId)).text).toBe('Recorded once')
    const before = calls()
    expect((await streamMessage(svc, chat.sessionId)).text).toBe('Recorded once')
    expect((await streamMessage(svc, chat.sessionId)).text).toBe('Recorded once')
    const refused = await streamMessage(svc, chat.sessionId)
    expect(refused.status).toBe(429)
    expect(errorBodySchema.parse(refused.body).error.code).toBe('rate_limited')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)

    // Another visitor's answer has its own allowance; this one's comes back with time.
    const another = await waitingChat(svc)
    expect((await streamMessage(svc, another.sessionId)).status).toBe(200)
    expect((await streamMessage(svc, another.sessionId)).status).toBe(200)
    svc.clock.advance(60_000)
    expect((await streamMessage(svc, chat.sessionId)).text).toBe('Recorded once')
    expect(calls()).toBe(before + 1)
    // The flow goes on with the record whatever the replays did.
    expect(texts((await say(svc, chat.sessionId, {})).body)).toEqual(['17 tokens for "Recorded once"'])
  })
})

describe('what a streaming answer writes to the database', () => {
  it('is each part once, not the whole text again at every progress write', async () => {
    const written = { bytes: 0 }
    const counting = { database: countingDatabase(db.database, written), kind: db.kind }
    const options: AiServiceOptions = { config: { aiStreams: { perWorkspace: 10, replays: noReplayLimit } } }
    const owner = await aiService(counting, ai.server, options)
    const other = await aiService(db, ai.server, { ...options, schema: owner.schema })
    try {
      const count = 12
      const part = 'x'.repeat(16 * 1024)
      ai.server.script({ parts: Array.from({ length: count }, () => part), pauseAfter: Array.from({ length: count - 1 }, (_, i) => i + 1) })
      const chat = await waitingChat(owner)
      const read = streamMessage(owner, chat.sessionId)
      await until(() => ai.server.sentAt.length === 1)
      // Another process follows through the database: each part is there before the next is sent.
      const follower = await follow(other, chat.sessionId)
      for (let sent = 1; sent < count; sent++) {
        await follower.until(sent * part.length)
        ai.server.release()
      }
      expect(await follower.rest()).toBe(part.repeat(count))
      expect((await read).text).toBe(part.repeat(count))
      const answer = count * part.length
      console.log(
        `database writes for one streamed answer of ${answer} B in ${count} parts: ${written.bytes} B (${(written.bytes / answer).toFixed(2)} × the answer)`,
      )
      expect(written.bytes).toBeLessThan(1.5 * answer)
      expect(texts((await say(other, chat.sessionId, {})).body)).toEqual([`17 tokens for "${part.repeat(count)}"`])
    } finally {
      ai.server.release()
      await other.close()
      await owner.close()
    }
  })
})

/** Reads a streamed answer as it comes, from another service sharing the database. */
async function follow(svc: TestService, sessionId: string) {
  const response = await svc.app.request(`/v1/sessions/${sessionId}/streamMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  expect(response.status).toBe(200)
  const reader = response.body!.getReader()
  const parser = createStreamParser()
  let text = ''
  const more = async () => {
    const chunk = await reader.read()
    if (chunk.done) return false
    for (const part of parser.push(chunk.value)) if (part.type === 'text') text += part.text
    return true
  }
  return {
    async until(length: number) {
      while (text.length < length) if (!(await more())) break
      expect(text.length).toBe(length)
    },
    async rest() {
      while (await more());
      return text
    },
  }
}

async function otherWorkspaceChat(svc: TestService) {
  const imported = await svc.call('POST', '/v1/flows/import', {
    token: svc.tokens.otherSecret,
    json: { workspaceId: OTHER_WORKSPACE, flow: aiFlow() },
  })
  await svc.call('POST', `/v1/flows/${imported.body.flow.id}/publish`, { token: svc.tokens.otherSecret })
  const started = await svc.call('POST', `/v1/flows/${imported.body.flow.id}/startChat`, { json: { isStreamEnabled: true } })
  const chat = startChatResponseSchema.parse(started.body)
  await say(svc, chat.sessionId, { message: 'Me too' })
  return chat
}

/** The database, counting the text bytes of every statement that writes a streamed answer. */
function countingDatabase(database: Database, written: { bytes: number }): Database {
  const counting = (target: Queryable): Queryable => ({
    query(sql, params = []) {
      if (/ai_stream/.test(sql) && /\b(INSERT|UPDATE)\b/.test(sql)) {
        for (const param of params) if (typeof param === 'string') written.bytes += Buffer.byteLength(param)
      }
      return target.query(sql, params)
    },
  })
  return {
    ...counting(database),
    transaction: (fn) => database.transaction((tx) => fn(counting(tx))),
    listen: (channel, onPayload, onReconnect) => database.listen(channel, onPayload, onReconnect),
    close: () => database.close(),
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(condition()).toBe(true)
}

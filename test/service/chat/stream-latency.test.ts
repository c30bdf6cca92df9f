import { performance } from 'node:perf_hooks'
import { expect, it } from 'vitest'
import { createStreamParser } from '../../../src/protocol/stream'
import { aiFlow, say, startAiChat, useAiServices } from '../helpers/ai-flows'
import { useTestDatabase } from '../helpers/database'

/**
 * The service's added latency per streamed part: from the provider writing a part to the line
 * reaching the widget, at part 10 and part 2,000 (the cost of a part must not grow with the
 * answer). Printed, not asserted: a figure on a shared machine is not a test.
 */
const db = useTestDatabase()
const ai = useAiServices(db)

it('streams 2,000 parts one line each; prints the added latency at part 10 and 2,000', async () => {
  const { server } = ai
  const svc = await ai.service()
  const parts = Array.from({ length: 2_000 }, (_, i) => ` w${i}`)
  server.script({ parts })
  const chat = await startAiChat(svc, aiFlow(), true)
  await say(svc, chat.sessionId, { message: 'long please' })
  const response = await svc.app.request(`/v1/sessions/${chat.sessionId}/streamMessage`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  })
  const parser = createStreamParser()
  const arrivedAt: number[] = []
  const reader = response.body!.getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const now = performance.now()
    for (const part of parser.push(chunk.value)) if (part.type === 'text') arrivedAt.push(now)
  }
  expect(arrivedAt).toHaveLength(parts.length)
  const sentAt = server.sentAt
  /** The median over the ten parts up to part `n`. */
  const added = (n: number) => {
    const window = arrivedAt.slice(n - 10, n).map((at, i) => at - sentAt[n - 10 + i]!)
    return window.sort((a, b) => a - b)[5]!.toFixed(2)
  }
  console.log(
    `[bench] streamMessage added latency per part (median of parts n-9..n): part 10 ${added(10)} ms, part 2,000 ${added(2_000)} ms`,
  )
})

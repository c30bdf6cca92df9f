/**
 * `npm run bench:streaming`: a streamed AI answer in Chromium through the reference service, from a
 * local OpenAI-compatible server (test/service/helpers/openai-test-server.ts). Prints, as medians
 * of `BENCH_RUNS` answers of 2,000 tokens, the time from the stream's first byte to the first
 * painted token and the page's script time per token around token 10 and token 1,990. Numbers
 * only; nothing here asserts timings.
 */
import { join } from 'node:path'
import { startOpenAiTestServer } from '../service/helpers/openai-test-server'
import { chat } from './helpers/chat-page'
import { launchChromium } from './helpers/chromium'
import { type LongAnswerFigures, measureLongAnswer } from './helpers/stream-metrics'
import { startTestService, TEST_FLOWS_DIR } from './helpers/test-service'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

async function main() {
  const ai = await startOpenAiTestServer()
  const service = await startTestService([join(TEST_FLOWS_DIR, 'ai-chat.json')], {
    outboundAllowHosts: ['127.0.0.1'],
    ai: {
      defaults: { openai: { apiKey: 'sk-bench', baseUrl: ai.baseUrl } },
      timeouts: { firstTokenMs: 30_000, idleMs: 30_000, totalMs: 120_000 },
    },
  })
  const chromium = await launchChromium()
  try {
    const runs: LongAnswerFigures[] = []
    for (let run = 0; run < RUNS; run++) {
      const page = await chromium.context.newPage()
      await page.goto(service.pageUrl(service.flows['ai-chat.json']!))
      await chat(page).host('Ask me anything').waitFor()
      runs.push(await measureLongAnswer(page, ai))
      await page.close()
    }
    const ms = (pick: (figures: LongAnswerFigures) => number, digits: number) => median(runs.map(pick)).toFixed(digits)
    console.log(`streamed answer of 2,000 tokens, medians of ${RUNS} runs (desktop, loopback):`)
    console.log(`  first byte → first painted token: ${ms((f) => f.firstPaintMs, 1)} ms`)
    console.log(`  script time per token: ${ms((f) => f.earlyMs, 3)} ms at token ~10, ${ms((f) => f.lateMs, 3)} ms at token ~1,990`)
  } finally {
    await chromium.close()
    await service.close()
    await ai.close()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { resultDetailSchema } from '../../src/protocol/results'
import { useTestDatabase } from '../service/helpers/database'
import { importOverHttp, publishOverHttp } from '../service/helpers/flows'
import { createTestService, type TestService } from '../service/helpers/service'

/**
 * The console's templates, as an owner gets them: each file imports into the service unchanged,
 * publishes, and a visitor walks every way through it to its end, the flow's words filled with
 * their answers. (The console's own test creates one in Chromium: test/browser/admin/console.test.ts.)
 */
const DIR = join(import.meta.dirname, '../../src/admin/templates')
const template = (id: string) => JSON.parse(readFileSync(join(DIR, `${id}.json`), 'utf8')) as Record<string, any>

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

/** Every text a value holds (the bubbles' rich text, flattened). */
const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(texts)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) => (key === 'text' && typeof inner === 'string' ? [inner] : texts(inner)))
      : []

/** A visitor's whole conversation: what the flow said last, whether it ended, and the result. */
async function walk(id: string, answers: string[]) {
  const flow = await importOverHttp(svc, template(id))
  await publishOverHttp(svc, flow.id)
  const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: {} })
  expect(start.status, start.text).toBe(200)
  let last = start.body
  for (const message of answers) {
    expect(last.input, `the flow ended before "${message}"`).toBeDefined()
    last = (await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message } })).body
  }
  const detail = await svc.call('GET', `/v1/flows/${flow.id}/results/${start.body.resultId}`, { token: svc.tokens.secret })
  return { said: texts(last.messages).join(' '), input: last.input, result: resultDetailSchema.parse(detail.body).result }
}

describe("the console's templates", () => {
  it('are every flow file of the templates folder, each with a name and what it asks', () => {
    const ids = readdirSync(DIR)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.replace(/\.json$/, ''))
    expect(ids).toEqual(['contact-form', 'customer-feedback', 'lead-qualification'])
    for (const id of ids)
      expect(template(id)).toMatchObject({ name: expect.any(String), settings: { metadata: { description: expect.any(String) } } })
  })

  it('Contact form: a name, an e-mail address and a message, then thanks by name', async () => {
    const { said, input, result } = await walk('contact-form', ['Ada', 'ada@example.com', 'Do you ship abroad?'])
    expect(input).toBeUndefined()
    expect(said).toBe('Thank you, Ada: we have your message and will answer at ada@example.com.')
    expect(result.isCompleted).toBe(true)
  })

  it('Customer feedback: a score and its reason, then an e-mail address only when the visitor agrees', async () => {
    const agreed = await walk('customer-feedback', ['9', 'Quick answers', 'Yes, you may', 'ada@example.com'])
    expect(agreed.said).toBe('Thank you for your feedback: it helps us do better.')
    expect(agreed.result.cells).toMatchObject({ 'b-score': '9', 'b-follow-up': 'yes', 'b-email': 'ada@example.com' })
    const declined = await walk('customer-feedback', ['3', 'Too slow', 'No, thank you'])
    expect(declined.input).toBeUndefined()
    expect(declined.said).toBe('Thank you for your feedback: it helps us do better.')
    expect(declined.result.answers.map((answer) => answer.display)).toEqual(['3', 'Too slow', 'No, thank you'])
  })

  it('Lead qualification: the team size stored as a range while the visitor reads its label', async () => {
    const { said, result } = await walk('lead-qualification', ['Ada', '2 to 10', 'Answer our customers at night', 'ada@company.com'])
    expect(said).toBe('Thanks, Ada! Someone from our team will write to ada@company.com within a working day.')
    expect(result.answers.find((answer) => answer.blockId === 'b-size')).toMatchObject({ value: '2-10', display: '2 to 10' })
    expect(result.isCompleted).toBe(true)
  })
})

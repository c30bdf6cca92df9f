import { z } from 'zod/mini'

/**
 * Flow tests: scenarios a flow's author writes (a file for `flow-service test`, the body of
 * `POST /v1/flows/{id}/test`), and what running them reports. One definition for the command
 * line, the API and the console (docs/decisions/2026-11-28-flow-test-scenarios.md).
 *
 * A scenario plays one conversation: the flow starts (with `variables` prefilled), each of
 * `answers` answers what the flow waits for, in order; HTTP request blocks and AI blocks are
 * answered by `stubs` (served by a loopback server the run starts), e-mails are captured. What it
 * `expect`s is checked after the step it is written on: messages, variables, e-mails, the ending.
 */

/** Ceilings of one run: the API's bounded work per request, the command line's the same. */
export const MAX_SCENARIOS = 50
export const MAX_ANSWERS = 200
export const MAX_STUBS = 100
export const MAX_EXPECTATIONS = 100
const MAX_TEXT = 10_000
const MAX_URL = 2_048

const text = () => z.string().check(z.maxLength(MAX_TEXT))
/**
 * Text, or an object read by `object`: what a union does, but a wrong object is told by its own
 * problems (`answers.0.expect.ending: …`) rather than one "Invalid input" for the whole value.
 */
function textOr<T extends z.ZodMiniType>(object: T) {
  return z.unknown().check((ctx) => {
    if (typeof ctx.value === 'string') {
      if (ctx.value.length > MAX_TEXT) ctx.issues.push({ code: 'custom', message: `At most ${MAX_TEXT} characters`, input: ctx.value })
      return
    }
    if (typeof ctx.value !== 'object' || ctx.value === null || Array.isArray(ctx.value)) {
      ctx.issues.push({ code: 'custom', message: 'Expected an answer\'s text, or {"answer": "…", "expect": {…}}', input: ctx.value })
      return
    }
    const result = object.safeParse(ctx.value)
    if (result.success) ctx.value = result.data
    else
      for (const issue of result.error.issues)
        ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: ctx.value })
  }) as unknown as z.ZodMiniType<string | z.output<T>, string | z.input<T>>
}
const list = <T extends z.ZodMiniType>(item: T, max: number) => z.optional(z.array(item).check(z.maxLength(max)))

/** A message the step shows: its text (or media URL) contains or equals this. */
export const messageExpectationSchema = z.union(
  [z.strictObject({ contains: text() }), z.strictObject({ equals: text() }), z.strictObject({ matches: text() })],
  { error: 'Expected {"contains": "…"}, {"equals": "…"} or {"matches": "…"}' },
)
export type MessageExpectation = z.infer<typeof messageExpectationSchema>

/** A variable's expected value, by the variable's name; `null`: it has no value. */
export const expectedValueSchema = z.union([z.string().check(z.maxLength(MAX_TEXT)), z.number(), z.boolean(), z.null(), z.array(text())], {
  error: 'Expected text, a number, true or false, null (no value) or a list of texts',
})
export type ExpectedValue = z.infer<typeof expectedValueSchema>

/** An e-mail an Email block sent (captured, never delivered). */
export const emailExpectationSchema = z.strictObject({
  to: z.optional(text()),
  subjectContains: z.optional(text()),
  bodyContains: z.optional(text()),
})
export type EmailExpectation = z.infer<typeof emailExpectationSchema>

/** How the conversation stands once the answers are used: ended, or waiting at a block (any, or this one). */
export const endingSchema = z.union(
  [z.literal('finished'), z.literal('waiting'), z.strictObject({ waitingAt: z.string().check(z.maxLength(200)) })],
  { error: 'Expected "finished", "waiting" or {"waitingAt": "BLOCK_ID"}' },
)
export type Ending = z.infer<typeof endingSchema>

export const stepExpectationsSchema = z.strictObject({
  messages: list(messageExpectationSchema, MAX_EXPECTATIONS),
  variables: z.optional(z.record(z.string().check(z.maxLength(200)), expectedValueSchema)),
  emails: list(emailExpectationSchema, MAX_EXPECTATIONS),
  ending: z.optional(endingSchema),
})
export type StepExpectations = z.infer<typeof stepExpectationsSchema>

/** An answer: its text alone, or with what the flow is expected to do next. */
export const scenarioAnswerSchema = textOr(z.strictObject({ answer: text(), expect: z.optional(stepExpectationsSchema) }))
export type ScenarioAnswer = z.infer<typeof scenarioAnswerSchema>

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const

/**
 * What an HTTP request block's call to `url` gets back instead of reaching it. The URL matches
 * without its query string unless the stub gives one; `method` defaults to any.
 */
export const httpStubSchema = z.strictObject({
  url: z.url().check(z.maxLength(MAX_URL)),
  method: z.optional(z.enum(HTTP_METHODS)),
  status: z.optional(z.int().check(z.gte(100), z.lte(599))),
  headers: z.optional(z.record(z.string().check(z.maxLength(200)), z.string().check(z.maxLength(MAX_URL)))),
  /** JSON sent as JSON; a string is sent as text. */
  body: z.optional(z.unknown()),
})
export type HttpStub = z.infer<typeof httpStubSchema>

/** An AI block's answer, in the order the flow asks. */
export const aiStubSchema = z.strictObject({ reply: text() })
export type AiStub = z.infer<typeof aiStubSchema>

export const scenarioSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  /** Prefilled variables, by name, as startChat's `prefilledVariables`. */
  variables: z.optional(z.record(z.string().check(z.maxLength(200)), z.union([text(), z.number(), z.boolean()]))),
  stubs: z.optional(z.strictObject({ http: list(httpStubSchema, MAX_STUBS), ai: list(aiStubSchema, MAX_STUBS) })),
  /** What the flow does before the first answer. */
  start: z.optional(stepExpectationsSchema),
  answers: list(scenarioAnswerSchema, MAX_ANSWERS),
  /** What holds at the end; `ending` defaults to `finished` when no step names an ending. */
  expect: z.optional(stepExpectationsSchema),
})
export type Scenario = z.infer<typeof scenarioSchema>

/** A scenarios file, and the body of `POST /v1/flows/{id}/test`. */
export const flowTestsSchema = z.strictObject({
  scenarios: z.array(scenarioSchema).check(z.minLength(1), z.maxLength(MAX_SCENARIOS)),
})
export type FlowTests = z.infer<typeof flowTestsSchema>

// Results

/** Where a failure was seen: `start`, `answer N` (1-based, as the file counts them), or `end`. */
export const failureSchema = z.object({
  step: z.string(),
  expected: z.string(),
  seen: z.string(),
})
export type FlowTestFailure = z.infer<typeof failureSchema>

export const scenarioResultSchema = z.object({
  name: z.string(),
  passed: z.boolean(),
  failures: z.array(failureSchema),
  /** What the flow said, step by step: the start, then after each answer used. */
  transcript: z.array(z.object({ step: z.string(), answer: z.optional(z.string()), messages: z.array(z.string()) })),
  durationMs: z.number(),
})
export type ScenarioResult = z.infer<typeof scenarioResultSchema>

export const flowTestsResponseSchema = z.object({
  passed: z.boolean(),
  /** What ran: the draft (the flow as it is) or a published version's number. */
  ran: z.union([z.literal('draft'), z.object({ version: z.number() })]),
  scenarios: z.array(scenarioResultSchema),
})
export type FlowTestsResponse = z.infer<typeof flowTestsResponseSchema>

/** `POST /v1/flows/{id}/test`: the longest one request runs scenarios; those not over by then fail. */
export const FLOW_TEST_TIME_LIMIT_SECONDS = 60
/** Test runs one service process runs at once; more are refused (429) until one is over. */
export const FLOW_TEST_RUNS_AT_ONCE = 2

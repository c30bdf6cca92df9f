import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { flowTestsResponseSchema } from '../../../src/protocol/flow-tests'
import { runFlowsCli } from '../../../src/service/cli/flows'
import { createStore, type Store } from '../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../helpers/database'
import { adultHearsAJoke, chatMainWithJokeApi, JOKE, JOKE_API, supportFlow, supportScenario } from '../helpers/flow-tests'
import { SHARED_FLOWS_DIR } from '../helpers/flows'

/**
 * `flow-service test FLOW.json SCENARIOS.json`: scenarios pass and fail as the flow behaves, with
 * HTTP and AI answered by the run's stub server and e-mails captured; the output names the
 * scenario, the step, what was expected and what was seen; exit codes 0, 1 and 2.
 */

const db = useTestDatabase()
let store: Store
let schema: string
let folder: string
let out: string[]
let err: string[]
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'flow-test-command-'))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})
beforeEach(async () => {
  schema = freshSchema()
  store = await createStore(db.database, { schema, closeDatabase: false })
  out = []
  err = []
})
afterEach(async () => {
  await store.close()
  await dropSchema(db.database, schema)
})

const io = () => ({ out: (line: string) => out.push(line), err: (line: string) => err.push(line) })
/** The command on the test's database (the command's own temporary one is the last test's). */
const run = (...argv: string[]) => runFlowsCli(argv, { store, env: {}, io: io() })

async function file(name: string, content: unknown): Promise<string> {
  const path = join(folder, name)
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('flow-service test', () => {
  it('passes a real export played to its end, its HTTP call answered by a stub', async () => {
    const flow = await file('chat.json', chatMainWithJokeApi())
    const scenarios = await file('chat-tests.json', { scenarios: [adultHearsAJoke] })
    expect(await run('test', flow, scenarios)).toBe(0)
    expect(out[0]).toMatch(/^PASS {2}An adult hears a joke \(\d+ ms\)$/)
    expect(out.at(-1)).toBe('1 scenario: 1 passed, 0 failed')
    expect(err).toEqual([])
  })

  it('fails a scenario whose expectations the flow does not meet, naming the step, what was expected and what was seen', async () => {
    const flow = await file('chat.json', chatMainWithJokeApi())
    const kid = {
      name: 'A kid is told they are an adult',
      answers: ['Bob', { answer: '12', expect: { messages: [{ contains: 'adult' }], variables: { Age: 13 } } }],
      expect: { ending: { waitingAt: 'clauurluf001i3b6qjf78puug' } },
    }
    const scenarios = await file('mixed.json', { scenarios: [adultHearsAJoke, kid] })
    expect(await run('test', flow, scenarios)).toBe(1)
    const text = out.join('\n')
    expect(text).toContain('PASS  An adult hears a joke')
    expect(text).toContain('FAIL  A kid is told they are an adult')
    expect(text).toContain(
      'answer 2: expected a message containing "adult"; seen "Oh, you are a kid 😁", "My magic number is 42", "I\'m gonna shoot multiple inputs now..."',
    )
    expect(text).toContain('answer 2: expected Age = 13; seen Age = "12"')
    // The ending it named holds: the e-mail input waits.
    expect(text).not.toContain('end:')
    expect(out.at(-1)).toBe('2 scenarios: 1 passed, 1 failed')
  })

  it('fails a scenario at the step whose HTTP call no stub answers, and one whose stubbed answer changes what the flow says', async () => {
    const flow = await file('chat.json', chatMainWithJokeApi())
    const noStub = { ...adultHearsAJoke, name: 'No stub for the joke API', stubs: {} }
    const otherJoke = {
      ...adultHearsAJoke,
      name: 'Another joke',
      stubs: { http: [{ method: 'POST', url: JOKE_API, body: { value: 'Chuck Norris can divide by zero.' } }] },
    }
    const scenarios = await file('stubs.json', { scenarios: [noStub, otherJoke] })
    expect(await run('test', flow, scenarios)).toBe(1)
    const text = out.join('\n')
    expect(text).toContain(`answer 5: expected every call answered by a stub; seen an HTTP call with no stub: POST ${JOKE_API}`)
    expect(text).toContain(`end: expected Joke = ${JSON.stringify(JOKE)}; seen Joke = "Chuck Norris can divide by zero."`)
    expect(text).toContain(`end: expected a message ${JSON.stringify(JOKE)}`)
  })

  it('answers AI blocks from the stubs and captures e-mails, whatever credentials the blocks name', async () => {
    const flow = await file('support.json', supportFlow())
    const wrongMail = {
      ...supportScenario,
      name: 'The e-mail goes to sales',
      answers: [{ answer: 'Hello', expect: { emails: [{ to: 'sales@example.com' }] } }],
    }
    const noAi = { ...supportScenario, name: 'No AI reply stubbed', stubs: { http: supportScenario.stubs.http } }
    const scenarios = await file('support-tests.json', { scenarios: [supportScenario, wrongMail, noAi] })
    expect(await run('test', flow, scenarios, '--json')).toBe(1)
    const report = flowTestsResponseSchema.parse(JSON.parse(out.join('\n')))
    expect(report.ran).toBe('draft')
    const [passed, mail, ai] = report.scenarios
    expect(passed!.failures).toEqual([])
    expect(passed!.transcript.at(-1)).toEqual({
      step: 'answer 1',
      answer: 'My printer is on fire',
      messages: ['Have you tried turning it off and on again?', 'Your ticket number is T-1042.'],
    })
    expect(mail!.failures).toEqual([
      { step: 'answer 1', expected: 'an e-mail to sales@example.com', seen: 'to support@example.com: "Ticket T-1042"' },
    ])
    expect(ai!.failures.map((failure) => failure.seen)).toContain(
      'an AI block asked for an answer, and the scenario has no stubbed AI reply left',
    )
  })

  it('says the flow had finished when a scenario gives more answers than it asks for', async () => {
    const flow = join(SHARED_FLOWS_DIR, 'tpl-nps.json')
    const scenarios = await file('nps-tests.json', {
      scenarios: [{ name: 'A promoter', answers: ['Sure!', '10', 'Everything', 'Maybe later', 'one more'] }],
    })
    expect(await run('test', flow, scenarios)).toBe(1)
    expect(out.join('\n')).toContain('answer 5: expected the flow to wait for the answer "one more"; seen the conversation had finished')
  })

  describe('bad input files: exit code 2, the reason, no stack trace', () => {
    const expectBadInput = async (argv: string[], message: RegExp) => {
      expect(await run('test', ...argv)).toBe(2)
      const text = err.join('\n')
      expect(text).toMatch(message)
      expect(text).not.toMatch(/\n\s+at /)
      expect(out).toEqual([])
    }

    it('a scenarios file that is not JSON', async () => {
      const flow = await file('support.json', supportFlow())
      await expectBadInput([flow, await file('broken.json', '{"scenarios": [')], /broken\.json is not valid JSON/)
    })

    it('a scenarios file that is not in the format, each problem on a line of its own, where it is', async () => {
      const flow = await file('support.json', supportFlow())
      const wrong = await file('wrong.json', {
        scenarios: [{ name: '', answers: [42, { answer: 'Ada', expect: { ending: 'over', messages: [{ has: 'Ada' }] } }] }],
      })
      await expectBadInput([flow, wrong], /wrong\.json is not a scenarios file:\n {2}scenarios\.0\.name: .+\n/)
      const text = err.join('\n')
      expect(text).toContain(`scenarios.0.answers.0: Expected an answer's text, or {"answer": "…", "expect": {…}}`)
      expect(text).toContain('scenarios.0.answers.1.expect.ending: Expected "finished", "waiting" or {"waitingAt": "BLOCK_ID"}')
      expect(text).toContain('scenarios.0.answers.1.expect.messages.0: Expected {"contains": "…"}, {"equals": "…"} or {"matches": "…"}')
    })

    it('a flow file that is not a flow export, and a file that is not there', async () => {
      const scenarios = await file('ok.json', { scenarios: [supportScenario] })
      await expectBadInput([await file('not-a-flow.json', { groups: 'none' }), scenarios], /not-a-flow\.json is not a flow export:/)
      err = []
      await expectBadInput([join(folder, 'missing.json'), scenarios], /Cannot read .*missing\.json: ENOENT/)
    })

    it('a command without its two files is a usage error', async () => {
      expect(await run('test', join(folder, 'only-one.json'))).toBe(2)
      expect(err[0]).toContain('test takes a FLOW file and a SCENARIOS file')
    })
  })

  it('runs on an embedded database of its own, in a temporary folder it deletes', async () => {
    const flow = await file('support.json', supportFlow())
    const scenarios = await file('support-tests.json', { scenarios: [supportScenario] })
    const temporary = await mkdtemp(join(tmpdir(), 'flow-test-tmpdir-'))
    const before = process.env.TMPDIR
    process.env.TMPDIR = temporary
    try {
      expect(await runFlowsCli(['test', flow, scenarios], { env: {}, io: io() })).toBe(0)
      expect(out[0]).toContain('PASS  A question opens a ticket')
      expect(await readdir(temporary)).toEqual([])
    } finally {
      if (before === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = before
      await rm(temporary, { recursive: true, force: true })
    }
  }, 180_000)
})

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { PublishedFlow } from '../../../src/protocol/index'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { AllowList } from '../../../src/service/outbound/address-policy'
import { createOutboundHttp, type OutboundHttp } from '../../../src/service/outbound/outbound-http'
import { createStore, type Store } from '../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../helpers/database'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server'
import { EVIL, EVIL_HOST, OWN_API, PREFILL_ALLOWED, PREFILL_ATTACKS, type PrefillCase } from './fixtures/prefill-attacks'
import { Conversation, flowLoader, varId } from './support/flow-builder'
import { mailContext } from './support/mail-context'

/** One prefill rule for every flow a chat may walk into: prefill-attacks.ts, against real servers. */
const db = useTestDatabase()
let own: HttpTestServer
let evil: HttpTestServer
let smtp: SmtpTestServer
let http: OutboundHttp
let store: Store
let schema: string

beforeAll(async () => {
  ;[own, evil, smtp] = await Promise.all([startHttpTestServer(), startHttpTestServer(), startSmtpTestServer()])
  http = createOutboundHttp({ allow: AllowList.parse('127.0.0.1').list })
  schema = freshSchema()
  store = await createStore(db.database, { schema, closeDatabase: false })
  await store.workspaces.ensure('acme', 'Acme', new Date())
})
afterEach(() => {
  smtp.received.length = 0
})
afterAll(async () => {
  await Promise.all([http.close(), own.close(), evil.close(), smtp.close(), closeSandbox()])
  await store.close()
  await dropSchema(db.database, schema)
})

/** The case's text with the servers' real addresses in place of its stand-ins. */
const real = (text: string) =>
  text.replaceAll(OWN_API, own.origin).replaceAll(EVIL_HOST, evil.origin.replace('http://', '')).replaceAll(EVIL, evil.origin)

async function startCase({ flows, prefilled }: PrefillCase) {
  const [root, ...linked] = JSON.parse(real(JSON.stringify(flows))) as PublishedFlow[]
  const prefilledVariables = Object.fromEntries(Object.entries(prefilled).map(([name, value]) => [name, real(value)]))
  const chat = new Conversation(root!, undefined, { http, flows: flowLoader(...linked), ...mailContext(store, http, smtp.url) })
  const outcome = await chat.start({ prefilledVariables })
  return { outcome, prefilledVariables }
}

const refusedIn = (outcome: Awaited<ReturnType<typeof startCase>>['outcome']) =>
  outcome.logs.find((log) => log.description.startsWith('Prefilled variables not set'))?.details as
    | { variables: string[]; reaches: Record<string, string> }
    | undefined

describe('prefilled values never reach where a flow calls, mails, opens or reads Markdown', () => {
  it.each(PREFILL_ATTACKS.map((attack) => [attack.tries, attack] as const))('%s', async (_, attack) => {
    const evilBefore = evil.received.length
    const { outcome, prefilledVariables } = await startCase(attack)

    expect(evil.received.length - evilBefore).toBe(0)
    expect(smtp.received.flatMap((mail) => mail.envelope.to).filter((to) => to.endsWith('@evil.test'))).toEqual([])
    for (const name of attack.refused) {
      expect(outcome.state.variables[varId(name)], name).not.toBe(prefilledVariables[name])
      expect(JSON.stringify(outcome.response), name).not.toContain(JSON.stringify(prefilledVariables[name]!).slice(1, -1))
    }
    const refused = refusedIn(outcome)
    expect(refused?.variables).toEqual(attack.refused)
    // The log says where each value would have gone, for the author to decide.
    for (const name of attack.refused) expect(refused?.reaches[name], name).toMatch(/\w/)
  })

  it('name, in the log, the block a value would have reached and the variable it was copied through', async () => {
    const copy = PREFILL_ATTACKS.find((attack) => attack.tries.startsWith('a copy made inside the linked flow'))!
    const { outcome } = await startCase(copy)
    expect(refusedIn(outcome)?.reaches).toEqual({
      Region: 'the address, headers or query of Webhook block call, copied there through "Api"',
    })
  })
})

describe('prefilled values that reach nowhere the prefiller chooses still go in', () => {
  it.each(PREFILL_ALLOWED.map((allowed) => [allowed.tries, allowed] as const))('%s', async (_, allowed) => {
    const { outcome, prefilledVariables } = await startCase(allowed)
    for (const [name, value] of Object.entries(prefilledVariables)) expect(outcome.state.variables[varId(name)], name).toBe(value)
    expect(refusedIn(outcome)).toBeUndefined()
  })

  it("send the author's opened address its calls, key included", async () => {
    const before = own.hits('/quote').length
    await startCase(PREFILL_ALLOWED.find((allowed) => allowed.tries.includes('isPrefillable: true'))!)
    const [call] = own.hits('/quote').slice(before)
    expect(call?.headers['x-api-key']).toBe('sk-owner-secret')
  })
})

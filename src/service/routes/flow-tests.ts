import type { Hono } from 'hono'
import { FLOW_TEST_RUNS_AT_ONCE, FLOW_TEST_TIME_LIMIT_SECONDS, flowTestsSchema } from '../../protocol/flow-tests'
import type { AppContext } from '../context'
import { testStoredFlow } from '../flow-tests/flow-tests-service'
import { parseVersionNumber } from '../flows/flow-versions'
import { bodyReader } from '../http/body'
import { HttpError } from '../http/errors'
import { ownedFlowFinder } from './secret-caller'

/**
 * `POST /v1/flows/{id}/test` (secret token): the body's scenarios played against the flow as it
 * is (its draft) or a published version (`?version=N`), nothing written, the results as JSON.
 * Bounded per request: the management body limit and the scenario format's ceilings, a time limit,
 * and a few runs at once per process.
 */
export function registerFlowTestRoutes(app: Hono, ctx: AppContext): void {
  const ownedFlow = ownedFlowFinder(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)
  let running = 0

  app.post('/v1/flows/:flowId/test', async (c) => {
    const flow = await ownedFlow(c)
    const asked = c.req.query('version')
    const version = asked === undefined ? undefined : parseVersionNumber(asked, 'version')
    const tests = await readBody(c, flowTestsSchema, { keys: ['scenarios'] })
    if (running >= FLOW_TEST_RUNS_AT_ONCE) {
      throw new HttpError('rate_limited', 'Other flow tests are running on this service. Try again in a few seconds.', undefined, {
        'Retry-After': '5',
      })
    }
    running++
    try {
      const deadline = Date.now() + FLOW_TEST_TIME_LIMIT_SECONDS * 1000
      const deps = { store: ctx.store, engine: ctx.engine, versions: ctx.versions, sandbox: ctx.sandbox, now: ctx.now }
      return c.json(await testStoredFlow(deps, flow, tests, { version, deadline }))
    } finally {
      running--
    }
  })
}

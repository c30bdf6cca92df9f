import { Hono } from 'hono'
import { afterEach, beforeEach, expect } from 'vitest'
import { handleError, handleNotFound } from '../../../src/service/http/errors'
import { registerShareRoutes, type ShareRouteOptions } from '../../../src/service/routes/share'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'
import { parsePage } from './page-dom'

/** Where the test service says visitors reach it (PUBLIC_URL). */
export const PUBLIC_URL = 'https://chat.example'

export const shareOn = (extra: Record<string, unknown> = {}) => ({ publicShare: { isEnabled: true }, ...extra })

export const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? ''

/**
 * A test service per test, and the share routes on their own app over its store (requests use
 * http://localhost unless a test names a full URL).
 */
export function useShareHarness() {
  const db = useTestDatabase()
  const state = {} as { svc: TestService; app: Hono }

  function shareApp(overrides: Partial<ShareRouteOptions> = {}): Hono {
    const app = new Hono()
    app.onError(handleError)
    app.notFound(handleNotFound)
    const config = { ...state.svc.config, publicUrl: PUBLIC_URL }
    registerShareRoutes(app, { store: state.svc.store, config, now: state.svc.clock.now, ...overrides })
    return app
  }

  beforeEach(async () => {
    state.svc = await createTestService(db)
    state.app = shareApp()
  })
  afterEach(() => state.svc.close())

  const get = (path: string, headers: Record<string, string> = {}, app = state.app) => app.request(path, { headers })

  async function sharedFlow(settings: Record<string, unknown>, overrides: Record<string, unknown> = {}) {
    const flow = await importOverHttp(state.svc, greetingFlow({ settings, ...overrides }))
    await publishOverHttp(state.svc, flow.id)
    return flow as { id: string; publicId: string }
  }

  async function page(path: string) {
    const res = await get(path)
    expect(res.status).toBe(200)
    const html = await res.text()
    return { res, html, doc: parsePage(html), csp: res.headers.get('content-security-policy') ?? '' }
  }

  return { state, shareApp, get, sharedFlow, page }
}

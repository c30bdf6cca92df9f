import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountDemoSite } from '../../../demo/site/routes'
import { newToken } from '../../../src/service/ids'
import { useTestDatabase } from '../../service/helpers/database'
import { createTestService, type TestService, WORKSPACE } from '../../service/helpers/service'

/** `/demo/outbox` shows visitors' answers: only to whoever gives the demo's secret token. */

const db = useTestDatabase()
const root = join(import.meta.dirname, '../../..')
let svc: TestService

beforeAll(async () => {
  svc = await createTestService(db)
  mountDemoSite(svc.app, {
    assetsDir: join(root, 'demo/assets'),
    flows: () => [],
    context: (url) => ({ apiHost: new URL(url).origin, publishableToken: svc.tokens.publishable }),
    secretToken: svc.tokens.secret,
  })
  await svc.store.outbox.add({
    id: 'm1',
    workspaceId: WORKSPACE,
    flowId: null,
    resultId: null,
    message: {
      from: 'bot@example.com',
      to: ['ada@example.com'],
      cc: [],
      bcc: [],
      subject: 'Ada’s private answers',
      text: 'Phone: 555-0100',
    },
    createdAt: svc.clock.now().toISOString(),
  })
})
afterAll(() => svc.close())

const page = (headers: Record<string, string> = {}, query = '') => svc.app.request(`/demo/outbox${query}`, { headers })
const enter = (token: string) =>
  svc.app.request('/demo/outbox', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  })

describe('the demo outbox page', () => {
  it('asks for the secret token in a form and shows nothing of the e-mails without it, nor for a token in the address', async () => {
    for (const response of [
      await page(),
      await page({}, `?token=${svc.tokens.secret}`),
      await page({ authorization: `Bearer ${svc.tokens.secret}` }),
    ]) {
      expect(response.status).toBe(200)
      const html = await response.text()
      expect(html).toContain('<form method="post" action="/demo/outbox">')
      expect(html).toMatch(/<label for="outbox-token">Secret token<\/label>\s*<input id="outbox-token" name="token" type="password"/)
      expect(html).not.toContain('private answers')
      expect(html).not.toContain('555-0100')
      expect(response.headers.get('set-cookie')).toBeNull()
    }
  })

  it('refuses a wrong token, and lets the right one in with a cookie that is not the token', async () => {
    const wrong = await enter(newToken('secret'))
    expect(wrong.status).toBe(401)
    expect(await wrong.text()).toContain('That is not the demo’s secret token')
    expect(wrong.headers.get('set-cookie')).toBeNull()

    const right = await enter(svc.tokens.secret)
    expect(right.status).toBe(303)
    expect(right.headers.get('location')).toBe('/demo/outbox')
    const cookie = right.headers.get('set-cookie')!
    expect(cookie).toMatch(/^demo_outbox=[\w-]{43}; Max-Age=43200; Path=\/demo\/outbox; HttpOnly; SameSite=Strict$/)
    expect(cookie).not.toContain(svc.tokens.secret.slice(6))

    const opened = await page({ cookie: cookie.split(';')[0]! })
    expect(opened.status).toBe(200)
    expect(opened.headers.get('cache-control')).toBe('no-store')
    const html = await opened.text()
    expect(html).toContain('Ada’s private answers')
    expect(html).toContain('555-0100')
    // A cookie made up or made for another token opens nothing.
    expect(await (await page({ cookie: `demo_outbox=${'A'.repeat(43)}` })).text()).not.toContain('555-0100')
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { createTestService, type TestService } from '../helpers/service'

/**
 * Every file the service serves from memory answers a revalidation the same way (RFC 9110
 * §13.1.2, If-None-Match): weak comparison, a list, `*`; a 304 has no body and keeps the headers
 * a cached copy is checked against. One file of each kind: the widget's script, the console's,
 * the share page's, and the script sandbox's document.
 */
const FILES = ['/widget/v1/flow-chat.js', '/admin/assets/console.js', '/share/v1/share.js', '/sandbox/v1/sandbox.html']

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const get = (path: string, headers: Record<string, string> = {}) =>
  svc.call('GET', path, { headers: { 'Accept-Encoding': 'br', ...headers } })

describe.each(FILES)('GET %s', (path) => {
  it('answers 304 with no body for its ETag, weak or strong, alone, in a list or as *', async () => {
    const first = await get(path)
    expect(first.status).toBe(200)
    expect(first.text.length).toBeGreaterThan(0)
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`, '*']) {
      const again = await get(path, { 'If-None-Match': ifNoneMatch })
      expect({ ifNoneMatch, status: again.status, body: again.text }).toEqual({ ifNoneMatch, status: 304, body: '' })
      expect(again.headers.get('ETag')).toBe(etag)
      expect(again.headers.get('Cache-Control')).toBe(first.headers.get('Cache-Control'))
      expect(again.headers.get('Content-Encoding')).toBeNull()
    }
  })

  it('sends the whole file when the ETag sent is another one', async () => {
    const first = await get(path)
    for (const ifNoneMatch of ['"other"', `W/"other", "${first.headers.get('ETag')!.slice(1, -2)}"`]) {
      const again = await get(path, { 'If-None-Match': ifNoneMatch })
      expect(again.status).toBe(200)
      expect(again.text).toBe(first.text)
    }
  })
})

it("keeps the widget's CORS and resource policy on a 304: a page on another site revalidates it", async () => {
  const first = await get('/widget/v1/flow-chat.js')
  const again = await get('/widget/v1/flow-chat.js', { 'If-None-Match': first.headers.get('ETag')! })
  expect(again.status).toBe(304)
  expect(again.headers.get('Access-Control-Allow-Origin')).toBe('*')
  expect(again.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
  expect(again.headers.get('Vary')).toBe('Accept-Encoding')
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handleError, handleNotFound } from '../../../src/service/http/errors'
import { ADMIN_PATH, registerAdminRoutes } from '../../../src/service/routes/admin'

const SCRIPT = 'document.body.dataset.console="1";\n'.repeat(40)
const STYLES = 'body{margin:0}\n'
const TEMPLATES = '{"templates":[]}'
let dir: string
let empty: string

const appOf = (distDir: string) => {
  const app = new Hono()
  app.onError(handleError)
  app.notFound(handleNotFound)
  registerAdminRoutes(app, { distDir })
  return app
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flow-console-files-'))
  empty = mkdtempSync(join(tmpdir(), 'flow-console-unbuilt-'))
  writeFileSync(join(dir, 'console.js'), SCRIPT)
  writeFileSync(join(dir, 'console.js.gz'), gzipSync(SCRIPT))
  writeFileSync(join(dir, 'console.css'), STYLES)
  writeFileSync(join(dir, 'templates.json'), TEMPLATES)
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  rmSync(empty, { recursive: true, force: true })
})

describe('GET /admin', () => {
  it('is a page with no inline code under a strict policy, never cached, framed or referred', async () => {
    const response = await appOf(dir).request(ADMIN_PATH)
    expect(response.status).toBe(200)
    const policy = response.headers.get('Content-Security-Policy')!
    expect(policy).toContain("script-src 'self';")
    expect(policy).toContain("style-src 'self';")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toMatch(/unsafe-(inline|eval)/)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(response.headers.get('X-Frame-Options')).toBe('DENY')
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer')
    const page = await response.text()
    expect(page).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/)
    const script = /<script type="module" src="([^"]+)"><\/script>/.exec(page)![1]!
    const stylesheet = /<link rel="stylesheet" href="([^"]+)">/.exec(page)![1]!
    expect(script).toMatch(/^\/admin\/assets\/console\.js\?v=[\w-]{12}$/)

    const served = await appOf(dir).request(script, { headers: { 'Accept-Encoding': 'gzip' } })
    expect(served.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(served.headers.get('Content-Encoding')).toBe('gzip')
    expect(served.headers.get('X-Content-Type-Options')).toBe('nosniff')
    const again = await appOf(dir).request(script, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': served.headers.get('ETag')! } })
    expect(again.status).toBe(304)
    const css = await appOf(dir).request(stylesheet)
    expect(css.headers.get('Content-Type')).toBe('text/css; charset=utf-8')
    expect(await css.text()).toBe(STYLES)
  })

  it("serves the console's templates as JSON beside its script", async () => {
    const response = await appOf(dir).request('/admin/assets/templates.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(await response.json()).toEqual({ templates: [] })
  })

  it('answers 404 with the error body for an unknown file, and says so when the console is not built', async () => {
    const missing = await appOf(dir).request('/admin/assets/secrets.txt')
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found')
    const unbuilt = await appOf(empty).request(ADMIN_PATH)
    expect(unbuilt.status).toBe(404)
    expect(((await unbuilt.json()) as { error: { message: string } }).error.message).toContain('npm run build')
  })

  it('sends /admin/ to /admin', async () => {
    const response = await appOf(dir).request('/admin/')
    expect(response.status).toBe(301)
    expect(response.headers.get('Location')).toBe(ADMIN_PATH)
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanup, render } from '@testing-library/preact'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { App } from '../../../src/admin/app'
import { setMuted } from '../../../src/admin/inbox/chime'
import { signIn, signOut } from '../../../src/admin/session'
import { type ServiceProcess, startServiceProcess } from '../../service/helpers/service-process'
import { startTeamApiServer, type TeamApiServer } from './team-api-server'

/**
 * The console rendered whole (src/admin/app.tsx) in happy-dom, its page at `/admin` on the
 * origin of a team API server on loopback: the console's own modules and the contract's client
 * run as they do in the browser, over real HTTP (happy-dom's fetch, streams included).
 */
export function useConsole(): { server: () => TeamApiServer } {
  let server: TeamApiServer | undefined
  beforeEach(async () => {
    server = await startTeamApiServer()
    ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${server.origin}/admin`)
    // As the page the service serves (src/service/routes/admin.ts) has them.
    document.documentElement.lang = 'en'
    document.title = 'Flow console'
    localStorage.clear()
    setMuted(false)
  })
  afterEach(async () => {
    cleanup()
    signOut()
    // What unmounting sent (a last "stopped typing") reaches the server before it closes.
    await new Promise((resolve) => setTimeout(resolve, 50))
    await server?.close()
  })
  return { server: () => server! }
}

/**
 * The console against the service itself: its own process on loopback (the embedded database),
 * started once for the file with `secret` as its FLOW_SECRET_TOKEN; the console's page is the
 * service's own /admin, so its calls and the test's are same-origin.
 */
export function useServiceConsole(secret: string): { service: () => ServiceProcess } {
  let service: ServiceProcess | undefined
  beforeAll(async () => {
    service = await startServiceProcess({ FLOW_SECRET_TOKEN: secret })
  }, 60_000)
  afterAll(() => service?.stop())
  beforeEach(() => {
    ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${service!.url}/admin`)
    // As the page the service serves has them.
    document.documentElement.lang = 'en'
    document.title = 'Flow console'
    localStorage.clear()
  })
  afterEach(() => {
    cleanup()
    signOut()
  })
  return { service: () => service! }
}

/** Signs in with `token` (as the sign-in form does once the service accepted it) and renders the console. */
export function renderConsole(token: string) {
  signIn(token)
  return render(<App />)
}

const AXE_SOURCE = readFileSync(join(import.meta.dirname, '../../../node_modules/axe-core/axe.min.js'), 'utf8')

/** axe-core's violations on the document (colour contrast needs layout, which happy-dom has not: the browser test checks it). */
export async function axeViolations(): Promise<string[]> {
  const page = window as unknown as { axe?: unknown; eval(source: string): void }
  if (!page.axe) page.eval(AXE_SOURCE)
  const axe = page.axe as {
    run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>
  }
  const result = await axe.run(document, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } })
  return result.violations.map((violation) => `${violation.id} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`)
}

/**
 * A stand-in for the browser's Web Audio API (happy-dom has none), recording the tones started:
 * the sound is the browser's, what the console asks of it is ours.
 */
export function recordTones(): { tones: number[]; restore(): void } {
  const tones: number[] = []
  const node = () => ({ connect: (next: unknown) => next, gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } })
  class FakeAudioContext {
    state = 'running'
    currentTime = 0
    destination = {}
    resume = async () => undefined
    createGain = node
    createOscillator() {
      return {
        ...node(),
        type: 'sine',
        frequency: { value: 0 },
        start() {},
        stop() {},
        connect(next: unknown) {
          tones.push(this.frequency.value)
          return next
        },
      }
    }
  }
  const global = globalThis as { AudioContext?: unknown }
  const before = global.AudioContext
  global.AudioContext = FakeAudioContext
  return { tones, restore: () => void (global.AudioContext = before) }
}

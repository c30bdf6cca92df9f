/**
 * The script of the sandbox test's host page, built with Vite by the test: a page that embeds the
 * script runner the way the widget does (its frame inside a closed shadow root), keeps secrets a
 * script must not reach, and records everything that reaches it.
 */
import { createScriptRunner, type SandboxLogEntry, type ScriptOutcome, type ScriptToRun } from '../../../src/widget/sandbox/index'
import { HOST_SECRETS } from './host-secrets'

export interface SandboxHost {
  run(script: ScriptToRun): Promise<ScriptOutcome>
  events: { name: string; payload: unknown }[]
  logs: SandboxLogEntry[]
  /** `securitypolicyviolation` reports on this page. */
  violations: string[]
  /** Types and origins of every message this window received. */
  messages: { type: unknown; origin: string }[]
  frameCount(): number
  /** Starts counting the animation frames the page paints. */
  startFrameClock(): void
  /** Stops counting; returns the frames painted and, to print, the longest gap between two (ms). */
  stopFrameClock(): { frames: number; longestGapMs: number }
}

declare global {
  interface Window {
    sandboxHost: SandboxHost
  }
}

const params = new URLSearchParams(location.search)
document.cookie = `${HOST_SECRETS.cookie}; path=/`
localStorage.setItem('host_secret', HOST_SECRETS.localStorage)
sessionStorage.setItem('host_secret', HOST_SECRETS.sessionStorage)

const violations: string[] = []
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.effectiveDirective} ${event.blockedURI}`)
})
const messages: SandboxHost['messages'] = []
window.addEventListener('message', (event) => {
  const data: unknown = event.data
  messages.push({ type: typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : typeof data, origin: event.origin })
})

// The widget element stand-in: the runner's frame lives in its closed shadow root.
const element = document.createElement('flow-chat-test')
document.body.append(element)
const root = element.attachShadow({ mode: 'closed' })

const events: SandboxHost['events'] = []
const logs: SandboxLogEntry[] = []
const runner = createScriptRunner({
  container: root,
  sandboxUrl: params.get('sandbox') ?? '',
  timeoutMs: params.has('timeout') ? Number(params.get('timeout')) : undefined,
  allowNetwork: params.get('network') === '1',
  onHostEvent: (name, payload) => events.push({ name, payload }),
  onLog: (entry) => logs.push(entry),
})

let clock = { last: 0, longest: 0, frames: 0, running: false }
const tick = (time: number) => {
  if (!clock.running) return
  if (clock.last !== 0) clock.longest = Math.max(clock.longest, time - clock.last)
  clock.last = time
  clock.frames++
  requestAnimationFrame(tick)
}

window.sandboxHost = {
  run: (script) => runner.run(script),
  events,
  logs,
  violations,
  messages,
  frameCount: () => root.querySelectorAll('iframe').length,
  startFrameClock() {
    clock = { last: 0, longest: 0, frames: 0, running: true }
    requestAnimationFrame(tick)
  },
  stopFrameClock() {
    clock.running = false
    return { frames: clock.frames, longestGapMs: clock.longest }
  },
}

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const DIST = resolve(import.meta.dirname, '../../dist')

/**
 * The budget, in bytes gzipped: every file is held to its measured size plus 1 KB, so growth has
 * to be deliberate (lower these with each new measurement; raise one only on purpose, saying why).
 * The core (the script a page loads first: the inline chat with its text input, text and image
 * bubbles) is meant to be at most CORE_GOAL; it is not yet (README, "Size and speed").
 */
const MEASURED: Record<string, number> = {
  'flow-chat.js': 30_746,
  'flow-chat.mjs': 30_719,
  /** Bubble and popup (their properties and windows, and the theme parts they read, checked there): loaded when the first one is on the page. */
  'flow-chat-launchers.mjs': 5_473,
  /** Dates, choices, pictures, ratings, and number, e-mail, URL and phone fields: loaded when a flow announces one. */
  'flow-chat-rich-inputs.mjs': 2_559,
  /** Video, audio and embed players: loaded when a flow announces one. */
  'flow-chat-media.mjs': 778,
  /** The html view: loaded for an html-only message, with the sanitizer. */
  'flow-chat-html.mjs': 239,
  /** DOMPurify and the widget's allow-lists: loaded for an html-only message or an AI answer. */
  'flow-chat-purify.mjs': 12_034,
  /** The stream action: streamMessage, the data stream parser, failures and retries of an AI answer. */
  'flow-chat-stream-answer.mjs': 2_544,
  /** AI answers as Markdown (marked, block by block as they stream, caret, retry): with the sanitizer. */
  'flow-chat-streamed-answer.mjs': 16_803,
  /**
   * The script sandbox runner, with the script payload's schema (it left the core): loaded when a
   * step brings a script. Raised by 0.1 KB on purpose: it carries its own anyOf
   * (protocol/any-of.ts), which left the core (issue 14).
   */
  'flow-chat-scripts.mjs': 4_212,
  /**
   * Redirects, waits, HTTP requests from the browser and webhook waits, with their payloads'
   * schemas (they left the core): loaded when a step brings one. Raised by 0.1 KB on purpose: it
   * carries its own anyOf (protocol/any-of.ts), which left the core (issue 14).
   */
  'flow-chat-client-actions.mjs': 2_677,
  /**
   * A host page's commands (sendCommand), with what a refused or failed one does: loaded with the
   * first one. Raised by 0.1 KB on purpose: it carries its own anyOf (protocol/any-of.ts), which
   * left the core (issue 14).
   */
  'flow-chat-commands.mjs': 1_312,
  /** The chat's look while a flow waits for a webhook: loaded when a step announces the wait. */
  'flow-chat-waiting-view.mjs': 713,
  /**
   * Remembered conversations (saving, resuming, starting over when republished or expired): loaded
   * for a flow that remembers users, or a remembered record. Raised from 1,257 B on purpose: the
   * resume and start-over paths left the core for it (issue 14), and from 1,631 B: it carries its
   * own anyOf (protocol/any-of.ts), which left the core.
   */
  'flow-chat-remembered.mjs': 1_702,
  /**
   * The theme's colours, shapes and background as custom properties: requested as a chat starts.
   * Raised by 0.1 KB on purpose: it carries its own anyOf (protocol/any-of.ts), which left the
   * core (issue 14).
   */
  'flow-chat-theme-vars.mjs': 2_370,
  /**
   * A theme's web font: loaded when the theme names one. Raised by 0.1 KB on purpose: it carries
   * its own anyOf (protocol/any-of.ts), which left the core (issue 14).
   */
  'flow-chat-fonts.mjs': 1_574,
  /** The progress bar and its look: requested when the published flow's theme enables it. */
  'flow-chat-progress-bar.mjs': 895,
  /** Why a remembered conversation started over: requested when a flow remembers users, or a restart happens. */
  'flow-chat-restart-notice.mjs': 638,
}
const CORE = ['flow-chat.js', 'flow-chat.mjs']
const CORE_GOAL = 30_000
/** The script sandbox document and its script, served by the service (src/service/routes/sandbox.ts). */
const SANDBOX: Record<string, number> = {
  'sandbox/sandbox.html': 408,
  'sandbox/sandbox.js': 2_765,
}

function read(file: string): string {
  const path = resolve(DIST, file)
  if (!existsSync(path)) {
    throw new Error(`dist/${file} is missing: run \`npm run build\` (vite build) before this test`)
  }
  return readFileSync(path, 'utf8')
}

const gzipped = (code: string) => gzipSync(code, { level: 9 }).length
const chunks = () => readdirSync(DIST).filter((file) => /^flow-chat-.+\.mjs$/.test(file))

/** Code that compiles strings at run time: a strict host CSP (no 'unsafe-eval') would block it. */
const DYNAMIC_CODE = [/(?<![\w$.])eval\s*\(/, /\bnew\s+Function\b/, /(?<![\w$.])Function\s*\(/]

describe('built bundles', () => {
  for (const [file, measured] of Object.entries(MEASURED)) {
    it(`${file} stays under ${measured + 1_024} bytes gzipped (measured ${measured})`, () => {
      expect(gzipped(read(file))).toBeLessThanOrEqual(measured + 1_024)
    })
  }

  for (const [file, measured] of Object.entries(SANDBOX)) {
    it(`${file} stays under ${measured + 1_024} bytes gzipped (measured ${measured})`, () => {
      expect(gzipped(read(file))).toBeLessThanOrEqual(measured + 1_024)
    })
  }

  // The goal the issue sets; 31.0 KB today (what the core is made of and what would close the gap:
  // README, "Size and speed").
  it.todo(`the core stays at most ${CORE_GOAL} bytes gzipped`)

  it('has a budget for every chunk it builds', () => {
    expect(chunks().sort()).toEqual(Object.keys(MEASURED).filter((file) => !CORE.includes(file)).sort())
  })

  for (const file of [...CORE, ...Object.keys(MEASURED).filter((name) => !CORE.includes(name))]) {
    it(`${file} never compiles code from strings`, () => {
      const code = read(file)
      for (const pattern of DYNAMIC_CODE) expect(code).not.toMatch(pattern)
    })
  }

  it('finds its chunks beside itself and shares its modules with them, instead of carrying them', () => {
    for (const file of CORE) {
      const code = read(file)
      for (const chunk of chunks()) expect(code, `${file} → ${chunk}`).toContain(`import(\`./${chunk}\`)`)
      expect(code).not.toContain('Cure53')
      expect(code).not.toContain('flow-chat-sandbox:run')
    }
    for (const chunk of chunks()) {
      const code = read(chunk)
      expect(code).toMatch(/^export default function\(__fcCore\)\{/)
      // No copy of Preact (its options hook), signals or zod: those are the core's.
      expect(code, chunk).not.toMatch(/__PREACT_DEVTOOLS__|__preactattr_|_zod\b/)
    }
  })

  it('the script bundle defines one global, FlowChat', () => {
    expect(read('flow-chat.js')).toMatch(/^var FlowChat=/)
  })
})

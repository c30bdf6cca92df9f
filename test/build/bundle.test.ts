import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

const DIST = resolve(import.meta.dirname, '../../dist')

/**
 * Gzipped size ceiling of each script bundle, in bytes: the larger of the two as measured
 * (flow-chat.js 32,690; flow-chat.mjs 33,042) plus 1 KB, so growth has to be deliberate (raise
 * this on purpose, with the new measurement). The goal is under 30 KB; today roughly 7 KB is
 * zod, 8 KB Preact with hooks and signals, the rest the widget. DOMPurify is not in it: it loads
 * lazily from the sibling file, checked separately.
 */
// Raised from 33,042 when scripts started running in the sandbox: the iframe runner, its message
// checks and the element wiring measured +4.5 KB (flow-chat.mjs 37,614).
// Raised from 37,614 for the bubble and popup launchers, the FlowChat.init* API and the script-tag
// auto-embed, all in the classic script so one tag still does everything: +5.4 KB measured
// (flow-chat.mjs 42,981).
// Raised from 42,981 for remembered conversations (saved-record schema, checkpoints, restore,
// storage fallback: +2.1 KB) and image bubbles that reveal at their final size with labelled
// answers (+0.7 KB): flow-chat.mjs 45,772 measured.
const CEILING = 45_772 + 1_024
/** The lazily loaded DOMPurify sibling (with its licence banner): measured 11,487 bytes, plus 1 KB. */
const PURIFY_CEILING = 11_487 + 1_024

const BUNDLES = ['flow-chat.js', 'flow-chat.mjs']

function read(file: string): string {
  const path = resolve(DIST, file)
  if (!existsSync(path)) {
    throw new Error(`dist/${file} is missing: run \`npm run build\` (vite build) before this test`)
  }
  return readFileSync(path, 'utf8')
}

const gzipped = (code: string) => gzipSync(code, { level: 9 }).length

/** Code that compiles strings at run time: a strict host CSP (no 'unsafe-eval') would block it. */
const DYNAMIC_CODE = [/(?<![\w$.])eval\s*\(/, /\bnew\s+Function\b/, /(?<![\w$.])Function\s*\(/]

describe('built bundles', () => {
  for (const file of BUNDLES) {
    it(`${file} stays under ${CEILING} bytes gzipped`, () => {
      expect(gzipped(read(file))).toBeLessThanOrEqual(CEILING)
    })
  }

  it(`the lazily loaded sanitizer stays under ${PURIFY_CEILING} bytes gzipped`, () => {
    expect(gzipped(read('flow-chat-purify.mjs'))).toBeLessThanOrEqual(PURIFY_CEILING)
  })

  for (const file of [...BUNDLES, 'flow-chat-purify.mjs']) {
    it(`${file} never compiles code from strings`, () => {
      const code = read(file)
      for (const pattern of DYNAMIC_CODE) expect(code).not.toMatch(pattern)
    })
  }

  it('loads DOMPurify lazily from its sibling instead of bundling it', () => {
    for (const file of BUNDLES) {
      const code = read(file)
      expect(code).toContain('./flow-chat-purify.mjs')
      expect(code).not.toContain('Cure53')
    }
  })

  it('the script bundle defines one global, FlowChat', () => {
    expect(read('flow-chat.js')).toMatch(/^var FlowChat=/)
  })
})

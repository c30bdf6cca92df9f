import { readFileSync } from 'node:fs'
import { SourceMap, type SourceMapPayload } from 'node:module'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const DIST = resolve(import.meta.dirname, '../../dist')

/**
 * Strings written once in the sources (where they are used, not constants the minifier moves),
 * each with the module it is written in: the shipped file's
 * source map must lead from each back to the very line that writes it. Some of these modules load
 * chunks (the build rewrites their dynamic imports), and every file went through two minifiers.
 */
const WRITTEN_IN: Array<[needle: string, source: string]> = [
  ['storage-unavailable', 'src/widget/element/conversation-storage.ts'],
  ['unknown data-mode', 'src/widget/embed/auto-embed.ts'],
  ['theme-refresh-failed', 'src/widget/chat/conversation/conversation.ts'],
  ['font-load-failed', 'src/widget/element/flow-chat-element.ts'],
  ['could not be loaded`', 'src/widget/chat/events/events.ts'],
]

describe.each(['flow-chat.js', 'flow-chat.mjs'])('the source map of %s', (file) => {
  const code = readFileSync(resolve(DIST, file), 'utf8')
  const payload = JSON.parse(readFileSync(resolve(DIST, `${file}.map`), 'utf8')) as SourceMapPayload & { sourcesContent: string[] }
  const map = new SourceMap(payload)

  it.each(WRITTEN_IN)('leads from %j back to the line of %s that writes it', (needle, source) => {
    const at = code.indexOf(needle)
    expect(at, `${needle} is in ${file}`).toBeGreaterThanOrEqual(0)
    const before = code.slice(0, at)
    const entry = map.findEntry(before.split('\n').length - 1, at - (before.lastIndexOf('\n') + 1)) as { originalSource?: string; originalLine?: number }
    expect(entry.originalSource).toMatch(new RegExp(`${source.replaceAll('.', '\\.')}$`))
    const original = payload.sourcesContent[payload.sources.findIndex((name) => name.endsWith(source))]!
    expect(original.split('\n')[entry.originalLine!]).toContain(needle)
  })
})

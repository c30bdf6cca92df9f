import { readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compressAgain } from '../../src/widget/build/second-pass'

const DIST = resolve(import.meta.dirname, '../../dist')

/** Where the first occurrence of `needle` in the shipped `file` comes from, by its source map. */
function origin(file: string, needle: string): string | undefined {
  const code = readFileSync(resolve(DIST, file), 'utf8')
  const map = new SourceMap(JSON.parse(readFileSync(resolve(DIST, `${file}.map`), 'utf8')))
  const at = code.indexOf(needle)
  expect(at, `${needle} is in ${file}`).toBeGreaterThanOrEqual(0)
  const before = code.slice(0, at)
  const line = before.split('\n').length - 1
  const entry = map.findEntry(line, at - (before.lastIndexOf('\n') + 1)) as { originalSource?: string }
  return entry.originalSource
}

describe('the second compression pass', () => {
  it('keeps what the code does', async () => {
    const { code } = await compressAgain('export function f(a){var b=a+1;var c=b*2;if(c>4){return c}else{return 0}}', true)
    const module = await import(`data:text/javascript,${encodeURIComponent(code)}`)
    expect([module.f(0), module.f(2)]).toEqual([0, 6])
  })

  // Strings written once in the sources, each in a different module of the core: a map that still
  // described the first pass's output would send them elsewhere.
  it.each(['flow-chat.js', 'flow-chat.mjs'])('leaves %s a source map that points at the original sources', (file) => {
    expect(origin(file, 'flowchat:chat:')).toMatch(/src\/widget\/element\/conversation-storage\.ts$/)
    expect(origin(file, '[flow-chat]')).toMatch(/src\/widget\/bundle\.ts$|src\/widget\/embed\/auto-embed\.ts$/)
    expect(origin(file, 'Waiting for an update')).toMatch(/src\/widget\/ui\/live-region\.tsx$/)
  })
})

import { readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { minify, type MinifyOptions } from 'terser'
import type { Plugin } from 'vite'

/**
 * A second compression of the shipped scripts, after Rolldown's own minifier.
 *
 * The core script's gzip bytes are the widget's budget (test/build/bundle.test.ts). Rolldown's
 * minifier is fast and does the tree-shaking-aware work; terser's compressor, run over its output,
 * still finds about 1 % (300 B of the core, measured): it joins statements and declarations and inlines
 * what the first pass left. Only transforms that are safe for any input are enabled (no `unsafe*`
 * options), so behaviour cannot change; the browser tests run against this output.
 */
const options = (module: boolean): MinifyOptions => ({
  module,
  ecma: 2020,
  // Two passes pay (measured: a third costs bytes); licences stay, as in the first pass.
  compress: { passes: 2 },
  mangle: true,
  format: { comments: 'some' },
})

/** Compresses one script again; its source map (the first pass's, if any) is carried through. */
export async function compressAgain(code: string, module: boolean, map?: { content: string; url: string }): Promise<{ code: string; map?: string }> {
  const result = await minify(code, { ...options(module), sourceMap: map ?? false })
  if (result.code === undefined) throw new Error('terser produced no code')
  return { code: result.code, map: typeof result.map === 'string' ? result.map : undefined }
}

/**
 * The plugin: every script the core builds wrote, compressed again with its source map. After
 * writing, not in `generateBundle`: Rolldown writes the maps it made itself, whatever a plugin
 * sets on a chunk there.
 */
export function secondPass(): Plugin {
  return {
    name: 'flow-chat-second-pass',
    apply: 'build',
    async writeBundle(output, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk' || !output.dir) continue
        const file = join(output.dir, item.fileName)
        const mapFile = item.sourcemapFileName ? join(output.dir, item.sourcemapFileName) : undefined
        const map = mapFile && { content: await readFile(mapFile, 'utf8'), url: basename(mapFile) }
        const again = await compressAgain(await readFile(file, 'utf8'), output.format === 'es', map || undefined)
        await writeFile(file, again.code)
        if (mapFile && again.map) await writeFile(mapFile, again.map)
      }
    },
  }
}

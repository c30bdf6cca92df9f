import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** What a browser downloads from dist/: scripts, their maps, the sandbox document, and the console's styles and templates. */
const COMPRESSIBLE = /\.(?:m?js|html|map|css|json)$/

/**
 * Every file a browser downloads, compressed once at build time with the slowest, smallest
 * settings (brotli 11, gzip 9), written beside it as `<file>.br` and `<file>.gz`: the service picks
 * one by `Accept-Encoding` (src/service/widget/widget-files.ts) without compressing per request.
 */
export async function precompressDir(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  await Promise.all(
    entries
      .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
      .map(async (entry) => {
        const file = join(entry.parentPath, entry.name)
        const body = await readFile(file)
        const [br, gz] = await Promise.all([
          brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
          gzipAsync(body, { level: 9 }),
        ])
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)])
      }),
  )
}

/** The plugin: once every output is written (and compressed again by the second pass). */
export function precompress(dir: string): Plugin {
  return {
    name: 'flow-chat-precompress',
    apply: 'build',
    async closeBundle() {
      await precompressDir(dir)
    },
  }
}

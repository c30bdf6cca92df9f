import { chmod, cp } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Plugin, UserConfig } from 'vite'
import { CLI_NAME } from '../cli/invocation.ts'

const ROOT = resolve(import.meta.dirname, '../../..')
const OUT_DIR = resolve(ROOT, 'build/service')

/**
 * The files the service reads at run time, copied below build/service where the sources keep
 * them below src/service (see service-files.ts).
 */
const RUNTIME_FILES = ['engine/sandbox/sandbox-worker.mjs', 'qr-codes/qr-code-worker.mjs', 'thread-priority.mjs', 'share/assets']

function copyRuntimeFiles(): Plugin {
  return {
    name: 'flow-service-runtime-files',
    apply: 'build',
    async closeBundle() {
      for (const path of RUNTIME_FILES) {
        await cp(resolve(ROOT, 'src/service', path), resolve(OUT_DIR, path), { recursive: true })
      }
      // A command on its own too (`build/service/flow-service.mjs …`), as npm makes it when it links it.
      await chmod(resolve(OUT_DIR, `${CLI_NAME}.mjs`), 0o755)
    },
  }
}

/**
 * The production build of the service (`vite build --ssr`, part of `npm run build`): the service
 * and its command line as plain JavaScript in build/service, run by Node without tsx
 * (`npm run serve`, `npx flow-service`). Packages stay external: they come from `dependencies`, so a production
 * install (`npm ci --omit=dev`) has what this needs.
 */
export const SERVICE_BUILD: UserConfig = {
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: OUT_DIR,
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rolldownOptions: {
      // The command line's one entry, `npx flow-service` (package.json "bin"), run by Node as it is.
      input: { main: resolve(ROOT, 'src/service/main.ts'), [CLI_NAME]: resolve(ROOT, 'src/service/cli/flows.ts') },
      output: {
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: '[name]-[hash].mjs',
        banner: (chunk) => (chunk.isEntry && chunk.name === CLI_NAME ? '#!/usr/bin/env node' : ''),
      },
      checks: { pluginTimings: false },
      plugins: [copyRuntimeFiles()],
    },
  },
}

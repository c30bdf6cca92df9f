import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { minify } from 'vite'
import { defineConfig } from 'vitest/config'
import { sandboxDocument } from './src/widget/build/sandbox-document.ts'

const PURIFY_FILE = 'flow-chat-purify.mjs'

/**
 * DOMPurify is needed only for html-only messages, so both bundles load it lazily from a sibling
 * file instead of carrying it: `import('dompurify')` becomes `import('./flow-chat-purify.mjs')`,
 * which a module script and a classic script alike resolve against their own URL.
 */
function purifySibling() {
  return {
    name: 'flow-chat-purify-sibling',
    resolveDynamicImport(specifier: unknown) {
      return specifier === 'dompurify' ? { id: `./${PURIFY_FILE}`, external: true } : null
    },
    async generateBundle(this: { emitFile(file: object): string }, output: { format?: string }) {
      if (output.format !== 'es') return
      const file = fileURLToPath(import.meta.resolve('dompurify'))
      const source = readFileSync(file, 'utf8')
      const { code } = await minify(file, source, { compress: true, mangle: true })
      // Keep DOMPurify's licence banner, which minifying drops.
      const banner = /^\/\*![\s\S]*?\*\//.exec(source)?.[0] ?? ''
      this.emitFile({ type: 'asset', fileName: PURIFY_FILE, source: `${banner}\n${code}` })
    },
  }
}

// One config for the widget build and every test project.
// - `node`: contract schemas, the reference service and its engine (no DOM).
// - `dom`: widget modules and Preact components in a simulated DOM (happy-dom).
// - `browser`: real Chromium driven by playwright-core against the built bundle and a running
//   reference service (see test/browser/README.md); these files set up their own servers.
/**
 * zod keeps its configuration on `globalThis.__zod_globalConfig`, shared by every copy of zod in
 * the page. The widget defines no host globals besides `FlowChat`, and a host page's zod settings
 * must not reach the widget's parsing, so the bundle gets a module-private config instead.
 */
function privateZodConfig() {
  return {
    name: 'flow-chat-private-zod-config',
    transform(this: { error(message: string): never }, code: string, id: string) {
      if (!/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return null
      const patched = code
        .replace('(_a = globalThis).__zod_globalConfig ?? (_a.__zod_globalConfig = {});', '')
        .replace('export const globalConfig = globalThis.__zod_globalConfig;', 'export const globalConfig = {};')
        .replace('globalThis.__zod_globalConfig?.postProcessor', 'globalConfig.postProcessor')
      if (patched.includes('__zod_globalConfig')) {
        this.error('zod changed how it stores its global config: update privateZodConfig in vite.config.ts')
      }
      return { code: patched, map: null }
    },
  }
}

export default defineConfig({
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    // Custom elements, shadow DOM and constructable stylesheets need a 2022-era browser anyway.
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    lib: {
      // The bundle entry registers <flow-chat> on load; src/widget/index.ts itself has no side effects.
      entry: 'src/widget/bundle.ts',
      name: 'FlowChat',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'flow-chat.mjs' : 'flow-chat.js'),
    },
    rolldownOptions: {
      // Vite leaves ES library output unminified (whitespace kept); this bundle ships as is.
      output: { minify: true, comments: { legal: true } },
      plugins: [purifySibling(), privateZodConfig(), sandboxDocument()],
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/protocol/**/*.test.ts', 'test/service/**/*.test.ts', 'test/demo/**/*.test.ts', 'test/build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['test/widget/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
})

import { resolve } from 'node:path'
import { defineConfig, type ViteUserConfig } from 'vitest/config'
import { adminConsole } from './src/admin/build/console-build.ts'
import { SERVICE_BUILD } from './src/service/build/service-build.ts'
import { cssTemplates } from './src/widget/build/css-templates.ts'
import { declarations } from './src/widget/build/declarations.ts'
import { JSX_OPTIONS, lazyChunks, SHIPPED_COMMENTS } from './src/widget/build/lazy-chunks.ts'
import { packageManifest } from './src/widget/build/package-manifest.ts'
import { precompress } from './src/widget/build/precompress.ts'
import { sandboxDocument } from './src/widget/build/sandbox-document.ts'
import { secondPass } from './src/widget/build/second-pass.ts'

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

/** The script entry: the library, registering the elements on load. */
const ENTRY = 'src/widget/bundle.ts'

// One config for the widget build and every test project (the service's production build: below).
// - `node`: contract schemas, the reference service and its engine (no DOM).
// - `dom`: widget modules and Preact components in a simulated DOM (happy-dom).
// - `console`: the console's views (src/admin) in happy-dom, against API servers on loopback.
// - `browser`: real Chromium driven by playwright-core against the built bundle and a running
//   reference service (see test/browser/README.md); these files set up their own servers.
const WIDGET_AND_TESTS = {
  oxc: JSX_OPTIONS,
  build: {
    // Custom elements, shadow DOM and constructable stylesheets need a 2022-era browser anyway.
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    lib: {
      // The bundle entry registers <flow-chat> on load; src/widget/index.ts itself has no side effects.
      entry: ENTRY,
      name: 'FlowChat',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'flow-chat.mjs' : 'flow-chat.js'),
    },
    rolldownOptions: {
      // The build's plugins are meant to take their time (a second minifier, compression at 11).
      checks: { pluginTimings: false },
      // Vite leaves ES library output unminified (whitespace kept); this bundle ships as is. No
      // Symbol.toStringTag on the FlowChat global: 29 B of the classic script, read by nobody.
      output: { minify: true, comments: SHIPPED_COMMENTS, generatedCode: { symbols: false } },
      plugins: [
        privateZodConfig(),
        cssTemplates(),
        lazyChunks({ entry: ENTRY, root: resolve(import.meta.dirname, 'src/widget'), plugins: () => [privateZodConfig(), cssTemplates()] }),
        sandboxDocument(),
        // The owner's console (/admin): its own bundle in dist/admin, none of the widget's files.
        adminConsole(),
        secondPass(),
        precompress(resolve(import.meta.dirname, 'dist')),
        declarations(import.meta.dirname),
        // dist/ is the widget's npm package: its manifest, from this repository's, with no dependencies.
        packageManifest(import.meta.dirname, resolve(import.meta.dirname, 'dist')),
      ],
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: [
            'test/protocol/**/*.test.ts',
            'test/service/**/*.test.ts',
            'test/admin/**/*.test.ts',
            'test/demo/**/*.test.ts',
            'test/build/**/*.test.ts',
            'test/docs/**/*.test.ts',
          ],
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
          setupFiles: ['test/widget/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: ['test/admin/**/*.test.tsx'],
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
} satisfies ViteUserConfig

// `vite build --ssr` (the last step of `npm run build`) builds the service for production instead.
export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? SERVICE_BUILD : WIDGET_AND_TESTS))

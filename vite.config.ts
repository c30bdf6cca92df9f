import { defineConfig } from 'vitest/config'

// One config for the widget build and every test project.
// - `node`: contract schemas, the reference service and its engine (no DOM).
// - `dom`: widget modules and Preact components in a simulated DOM (happy-dom).
// - `browser`: real Chromium driven by playwright-core against the built bundle and a running
//   reference service (see test/browser/README.md); these files set up their own servers.
export default defineConfig({
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'preact' },
  },
  build: {
    target: 'es2020',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    lib: {
      entry: 'src/index.ts',
      name: 'FlowChat',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'flow-chat.mjs' : 'flow-chat.js'),
    },
  },
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/protocol/**/*.test.ts', 'test/demo/**/*.test.ts', 'test/build/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'dom',
          include: [
            'test/{chat,content,transport,ui,element,sandbox}/**/*.test.{ts,tsx}',
          ],
          environment: 'happy-dom',
        },
      },
      {
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

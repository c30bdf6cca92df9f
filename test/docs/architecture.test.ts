import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestDatabase } from '../service/helpers/database'
import { createTestService } from '../service/helpers/service'
import { REPO_ROOT } from './doc-blocks'

/**
 * docs/contributors/architecture.md stays true to the tree: its route table lists exactly the
 * routes the service's app has, and its trees of src/service and src/widget exactly the folders
 * there are (and, for the service, its top-level modules).
 */
const PAGE = readFileSync(resolve(REPO_ROOT, 'docs/contributors/architecture.md'), 'utf8')

/** The names at the first level of the page's tree of `root` (`app.ts, main.ts   the app…` gives two). */
function treeOf(root: string): string[] {
  const block = new RegExp(`\`\`\`text\\n${root}\\n([\\s\\S]*?)\`\`\``).exec(PAGE)?.[1]
  expect(block, `a tree of ${root} on the page`).toBeDefined()
  return block!
    .split('\n')
    .filter((line) => /^ {2}\S/.test(line))
    .flatMap((line) =>
      line
        .trim()
        .split(/\s{2,}/)[0]!
        .split(/,\s*/),
    )
}

const entriesOf = (folder: string, keep: (entry: { name: string; isDirectory(): boolean }) => boolean) =>
  readdirSync(resolve(REPO_ROOT, folder), { withFileTypes: true })
    .filter(keep)
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort()

describe('the architecture page', () => {
  it("lists the service's folders and top-level modules as they are", () => {
    const modules = entriesOf('src/service', (entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    expect(treeOf('src/service/').sort()).toEqual(modules)
  })

  it("lists the widget's folders as they are", () => {
    const folders = entriesOf('src/widget', (entry) => entry.isDirectory())
    expect(
      treeOf('src/widget/')
        .filter((name) => name.endsWith('/'))
        .sort(),
    ).toEqual(folders)
  })

  describe('route table', () => {
    const db = useTestDatabase()

    it('lists every route of the app, and no other', async () => {
      const svc = await createTestService(db, { config: { metricsToken: 'architecture-page-metrics-token' } })
      try {
        const app = new Set(svc.app.routes.filter((route) => route.method !== 'ALL').map((route) => `${route.method} ${route.path}`))
        const page = new Set([...PAGE.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE|OPTIONS) \/[^`\s]*)`/g)].map((match) => match[1]!))
        expect([...page].sort()).toEqual([...app].sort())
      } finally {
        await svc.close()
      }
    })
  })
})

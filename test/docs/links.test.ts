import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { anchors, documents, links, REPO_ROOT, target } from './doc-blocks'

/**
 * Every link between the project's documents leads somewhere: the file exists, and an `#anchor`
 * names a heading of the page it points to (as GitHub makes anchors from headings). Links to other
 * sites are not followed (this machine has no internet), but they must be https.
 */
describe('links in the documentation', () => {
  const all = documents().flatMap(links)

  it('are there to check', () => {
    expect(all.length).toBeGreaterThan(50)
  })

  it("from a folder's README lead to where its topic is documented", () => {
    const folders = documents().filter((document) => /^(src|test)\//.test(document))
    expect(folders.length).toBeGreaterThan(0)
    const unlinked = folders.filter((document) => !links(document).some((link) => link.href.includes('docs/')))
    expect(unlinked).toEqual([])
  })

  it('to other sites use https', () => {
    const insecure = all.filter((link) => /^http:/.test(link.href) && !/^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(link.href))
    expect(insecure).toEqual([])
  })

  it('to files and anchors of this repository resolve', () => {
    const broken: string[] = []
    for (const link of all) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.href)) continue
      const { path, anchor } = target(link)
      const file = resolve(REPO_ROOT, path)
      if (!existsSync(file)) {
        broken.push(`${link.document}: ${link.href} (no file ${path})`)
        continue
      }
      if (anchor === undefined) continue
      if (!path.endsWith('.md') || statSync(file).isDirectory())
        broken.push(`${link.document}: ${link.href} (an anchor into a file that is not a page)`)
      else if (!anchors(path).has(anchor)) broken.push(`${link.document}: ${link.href} (no heading #${anchor} in ${path})`)
    }
    expect(broken).toEqual([])
  })
})

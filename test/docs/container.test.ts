import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './doc-blocks'

/**
 * The container recipe as an operator reads it (no Docker engine here to build it): the files the
 * Dockerfile's and compose.yaml's comments send readers to exist, what the Dockerfile copies
 * reaches the build, and what compose.yaml asks operators to keep secret never does.
 */

const read = (file: string) => readFileSync(resolve(REPO_ROOT, file), 'utf8')
/** The comment lines of a Dockerfile or YAML file. */
const comments = (file: string) =>
  read(file)
    .split('\n')
    .filter((line) => line.trimStart().startsWith('#'))
    .join('\n')

/**
 * Whether `.dockerignore` keeps `path` (from the build context's root) out of the build, as Docker
 * reads it: patterns anchored at the root, `*` and `?` within a name, `**` across folders, `!`
 * taking a path back, the last pattern matching the path or a folder of it deciding.
 */
function ignored(path: string, patterns: string[]): boolean {
  const regex = (pattern: string) =>
    new RegExp(
      `^${pattern
        .replace(/^\/+|\/+$/g, '')
        .split('/')
        .map((part) =>
          part === '**'
            ? '.*'
            : part
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replaceAll('*', '[^/]*')
                .replaceAll('?', '[^/]'),
        )
        .join('/')
        .replaceAll('.*/', '(?:.*/)?')}$`,
    )
  const parts = path.split('/')
  const prefixes = parts.map((_, index) => parts.slice(0, index + 1).join('/'))
  let excluded = false
  for (const line of patterns) {
    const negated = line.startsWith('!')
    const pattern = regex(negated ? line.slice(1) : line)
    if (prefixes.some((prefix) => pattern.test(prefix))) excluded = !negated
  }
  return excluded
}

const dockerignore = read('.dockerignore')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))

describe('the container recipe', () => {
  it('sends readers to files that exist', () => {
    const named = ['Dockerfile', 'compose.yaml'].flatMap((file) =>
      [...comments(file).matchAll(/(?<![\w./-])((?:docs|src|test|demo)\/[\w./-]*\w|[\w-]+\.(?:md|ya?ml|json))\b/g)].map((match) => ({
        file,
        path: match[1]!,
      })),
    )
    expect(named.map(({ path }) => path)).toContain('docs/operators/deployment.md')
    expect(named.filter(({ path }) => !existsSync(resolve(REPO_ROOT, path)))).toEqual([])
  })

  it('keeps .env files, keys and certificates out of the image and its build cache', () => {
    for (const secret of ['.env', '.env.local', '.env.production', 'deploy/.env', 'tls/server.key', 'server.pem', '.data/credentials.key'])
      expect(ignored(secret, dockerignore), secret).toBe(true)
  })

  it('builds from what it copies: the manifests, .npmrc and the sources reach the build', () => {
    const copied = [...read('Dockerfile').matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1]!.split(/\s+/))
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', '.npmrc']))
    for (const needed of [...copied.filter((path) => path !== '.'), 'vite.config.ts', 'src/service/main.ts', 'src/widget/bundle.ts'])
      expect(ignored(needed, dockerignore), needed).toBe(false)
  })
})

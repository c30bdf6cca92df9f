import { execFile, execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * The Node.js requirement (package.json "engines") is enforced where a user meets it first:
 * `npm ci`, the first half of both set-up commands, stops on an older Node.js (.npmrc's
 * engine-strict) instead of warning and going on.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const required = /^>=(\d+\.\d+)$/.exec(manifest.engines.node)?.[1]
/** The machine's own Node.js and npm, when that Node.js is older than required (20 on this project's machines). */
const OLD = { node: '/usr/bin/node', npm: '/usr/bin/npm' }
const olderNode = (() => {
  if (!required || !existsSync(OLD.node) || !existsSync(OLD.npm)) return false
  const [major = 0, minor = 0] = execFileSync(OLD.node, ['--version'], { encoding: 'utf8' }).trim().slice(1).split('.').map(Number)
  const [needMajor = 0, needMinor = 0] = required.split('.').map(Number)
  return major < needMajor || (major === needMajor && minor < needMinor)
})()

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** The project's manifests, lock and .npmrc in a folder of their own, `engines` rewritten if asked. */
function project(engines?: string): string {
  dir = mkdtempSync(join(tmpdir(), 'flow-chat-engines-'))
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(ROOT, file), join(dir, file))
  if (engines) {
    for (const file of ['package.json', 'package-lock.json']) {
      const json = JSON.parse(readFileSync(join(dir, file), 'utf8'))
      ;(file === 'package.json' ? json : json.packages['']).engines.node = engines
      writeFileSync(join(dir, file), JSON.stringify(json, null, 2))
    }
  }
  return dir
}

function npmCi(cwd: string, env: NodeJS.ProcessEnv = process.env, npm = 'npm'): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(npm, ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd, env }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    )
  })
}

describe('the Node.js requirement', () => {
  it('is the one the README states', () => {
    expect(required).toBeDefined()
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`You need Node.js ${required} or later`)
  })

  it('stops `npm ci` on a Node.js older than it asks for, saying which it needs', async () => {
    // A requirement above this Node.js: this Node.js is then the older one.
    const above = `>=${Number(process.versions.node.split('.')[0]) + 1}`
    const cwd = project(above)
    const { code, output } = await npmCi(cwd)
    expect(code).not.toBe(0)
    expect(output).toContain('EBADENGINE')
    expect(output).toContain(`Required: {"node":"${above}"}`)
    expect(existsSync(join(cwd, 'node_modules'))).toBe(false)
  }, 60_000)

  it.skipIf(!olderNode)("stops `npm ci` on the machine's older Node.js, as a user with Node.js 20 runs it", async () => {
    const { code, output } = await npmCi(project(), { ...process.env, PATH: '/usr/bin:/bin' }, OLD.npm)
    expect(code).not.toBe(0)
    expect(output).toContain('EBADENGINE')
    expect(output).toContain(`Required: {"node":"${manifest.engines.node}"}`)
  }, 60_000)
})

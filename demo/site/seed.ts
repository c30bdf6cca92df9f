/**
 * Imports and publishes the demo flows and the shared real flows through the service's own HTTP
 * API, once: a state file maps each source file to its flow id and content hash, so a restart
 * re-publishes only what changed and never piles up copies.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'

export interface SeededFlow {
  file: string
  /** Where the file came from: the project's demo flows or the shared real flows. */
  source: 'demo' | 'shared'
  name: string
  flowId: string
  publicId: string
  /** The flow's settings turn on its full-page share link (`/{publicId}`). */
  shareEnabled: boolean
}

interface SeedState {
  [file: string]: { flowId: string; hash: string }
}

export function listFlowFiles(dirs: { dir: string; source: SeededFlow['source'] }[]) {
  return dirs.flatMap(({ dir, source }) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((file) => file.endsWith('.json'))
          .sort()
          .map((file) => ({ path: join(dir, file), source }))
      : [],
  )
}

export async function seedFlows(options: {
  baseUrl: string
  secretToken: string
  workspaceId: string
  stateFile: string
  files: { path: string; source: SeededFlow['source'] }[]
}): Promise<SeededFlow[]> {
  const state: SeedState = existsSync(options.stateFile) ? (JSON.parse(await readFile(options.stateFile, 'utf8')) as SeedState) : {}
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.secretToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    // Read as the flow answers; anything else is printed whole in the error below.
    const json = (await response.json()) as { flow: SeedFlowAnswer }
    return { status: response.status, json }
  }
  const seeded: SeededFlow[] = []
  for (const { path, source } of options.files) {
    const text = readFileSync(path, 'utf8')
    const flow = JSON.parse(text) as Record<string, unknown>
    const file = basename(path)
    const publicId = basename(file, '.json')
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
    const hash = createHash('sha256').update(text).digest('hex')
    const known = state[file]
    let flowId = known ? (await api('GET', `/v1/flows/${known.flowId}`)).json.flow?.id : undefined
    if (!flowId) {
      const imported = await api('POST', '/v1/flows/import', { workspaceId: options.workspaceId, flow })
      if (imported.status !== 200) throw new Error(`Importing ${file} failed: ${JSON.stringify(imported.json)}`)
      flowId = imported.json.flow.id as string
      await claimPublicId(api, flowId, publicId)
    } else if (known?.hash !== hash) {
      const { id: _id, publicId: _p, workspaceId: _w, createdAt: _c, updatedAt: _u, ...content } = flow
      const updated = await api('PATCH', `/v1/flows/${flowId}`, { flow: content })
      if (updated.status !== 200) throw new Error(`Updating ${file} failed: ${JSON.stringify(updated.json)}`)
    }
    if (known?.hash !== hash || known.flowId !== flowId) {
      const published = await api('POST', `/v1/flows/${flowId}/publish`)
      if (published.status !== 200) throw new Error(`Publishing ${file} failed: ${JSON.stringify(published.json)}`)
    }
    state[file] = { flowId, hash }
    const current = await api('GET', `/v1/flows/${flowId}`)
    seeded.push({
      file,
      source,
      name: String(current.json.flow.name),
      flowId,
      publicId: current.json.flow.publicId,
      shareEnabled: current.json.flow.settings?.publicShare?.isEnabled === true,
    })
  }
  await writeFile(options.stateFile, JSON.stringify(state, null, 2))
  return seeded
}

/** What the seeder reads of a flow the service returns. */
type SeedFlowAnswer = { id: string; name: string; publicId: string; settings?: { publicShare?: { isEnabled?: boolean } } }

/** Gives the flow a readable public id (the file name) when no other flow holds it. */
async function claimPublicId(
  api: (method: string, path: string, body?: unknown) => Promise<{ status: number }>,
  flowId: string,
  publicId: string,
) {
  const claimed = await api('PATCH', `/v1/flows/${flowId}`, { flow: { publicId } })
  if (claimed.status !== 200 && claimed.status !== 409) {
    throw new Error(`Setting the public id of ${flowId} failed with ${claimed.status}`)
  }
}

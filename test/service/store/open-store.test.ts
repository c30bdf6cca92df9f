import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/service/app'
import { createEngine } from '../../../src/service/engine/index'
import { LATEST_SCHEMA_VERSION } from '../../../src/service/store/migrations'
import { type OpenStoreOptions, openStore } from '../../../src/service/store/open-store'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import type { Store } from '../../../src/service/store/store'
import { databaseUrl, dropSchema, freshSchema } from '../helpers/database'
import { greetingFlow } from '../helpers/flows'
import { call, issueToken, TEST_CONFIG, WORKSPACE } from '../helpers/service'

/** Where a store lives between two opens: a PGlite directory, or a schema on the server. */
let location: OpenStoreOptions

async function newLocation(): Promise<void> {
  if (databaseUrl) {
    const schema = freshSchema()
    location = { databaseUrl, schema }
    cleanup = async () => {
      const db = openPgDatabase(databaseUrl!)
      await dropSchema(db, schema)
      await db.close()
    }
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'flow-store-'))
    location = { dataDir }
    cleanup = () => rm(dataDir, { recursive: true, force: true })
  }
}

let cleanup: (() => Promise<void>) | undefined

afterEach(async () => {
  await cleanup?.()
  cleanup = undefined
})

function appOver(store: Store) {
  return createApp({ store, engine: createEngine(), config: TEST_CONFIG })
}

describe('restart durability', () => {
  it('continues a chat after the service and its database were closed and reopened', async () => {
    await newLocation()
    const first = await openStore(location)
    await first.workspaces.ensure(WORKSPACE, 'Demo', new Date())
    const secret = await issueToken(first, WORKSPACE, 'secret')
    let app = appOver(first)
    const imported = await call(app, 'POST', '/v1/flows/import', {
      token: secret,
      json: { workspaceId: WORKSPACE, flow: greetingFlow() },
    })
    const flowId = imported.body.flow.id
    await call(app, 'POST', `/v1/flows/${flowId}/publish`, { token: secret })
    const started = await call(app, 'POST', `/v1/flows/${flowId}/startChat`)
    const { sessionId, resultId } = started.body
    const named = await call(app, 'POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 'Ada' } })
    expect(named.body.input.type).toBe('number input')
    await first.close()

    const second = await openStore(location)
    try {
      app = appOver(second)
      // The token survived too: management still works after the restart.
      const read = await call(app, 'GET', `/v1/flows/${flowId}`, { token: secret })
      expect(read.status).toBe(200)
      const done = await call(app, 'POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: '36' } })
      expect(done.status).toBe(200)
      expect(done.body.messages[0].content.richText[0].children[0].text).toBe('Thanks Ada, bye!')
      const answers = await second.results.listAnswers(resultId)
      expect(answers.map((a) => a.value)).toEqual(['Ada', '36'])
      // Reopening applied no migration twice.
      const migrations = await second.database.query(`SELECT version FROM ${second.tables.migrations}`)
      expect(migrations).toEqual(everyMigration())
    } finally {
      await second.close()
    }
  })
})

describe('openStore', () => {
  it('refuses a schema name that is not a plain identifier before opening anything', async () => {
    await expect(openStore({ schema: 'x"; DROP SCHEMA public; --' })).rejects.toThrow(/Invalid database schema/)
  })
})

/** One row per migration, each applied once. */
function everyMigration() {
  return Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 }))
}

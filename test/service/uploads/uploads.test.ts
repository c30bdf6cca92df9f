import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { purgeExpired, SESSION_PURGE_GRACE_MS } from '../../../src/service/chat/session-purge'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { BAD_FILE_ANSWERS } from '../fixtures/upload-bad-answers'
import { BAD_UPLOADS } from '../fixtures/upload-bad-input'
import { HTML, JSON_TEXT, PDF, PNG, SVG } from '../fixtures/upload-files'
import { NAMED_NOT_SENT } from '../fixtures/upload-floods'
import { useTestDatabase } from '../helpers/database'
import type { TestService } from '../helpers/service'
import { fetchFile, filesUnder, sessionAtFileInput, upload, uploadService } from './upload-helpers'

const db = useTestDatabase()
let svc: TestService & { dataDir: string }
beforeEach(async () => {
  svc = await uploadService(db)
})
afterEach(() => svc.close())

const answer = (sessionId: string, message: unknown, key = `k-${Math.random()}`) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
    json: message === undefined ? {} : { message },
    headers: { 'Idempotency-Key': key },
  })
const stored = async () => ({
  rows: await svc.store.database.query(`SELECT * FROM ${svc.store.tables.uploads}`),
  files: await filesUnder(svc.dataDir),
})
const texts = (body: any) => (body.messages ?? []).map((m: any) => m.content?.richText?.[0]?.children?.[0]?.text)

describe('uploading to a pending file input', () => {
  it('stores the file, answers its URL, name, size and type, and the flow takes the URL as its answer', async () => {
    const { sessionId, input } = await sessionAtFileInput(svc)
    expect(input).toMatchObject({ type: 'file input', options: { variableId: 'vFiles' } })
    const uploaded = await upload(svc, sessionId, PNG, { name: 'receipt.png', type: 'image/png', length: PNG.length })
    expect(uploaded.status).toBe(201)
    expect(uploaded.body).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost\/v1\/files\/[\w-]{32}\/receipt\.png$/),
      name: 'receipt.png',
      size: PNG.length,
      type: 'image/png',
    })

    const file = await fetchFile(svc, uploaded.body.url)
    expect(file.status).toBe(200)
    expect(file.bytes.equals(PNG)).toBe(true)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="receipt\.png"/)

    const url = uploaded.body.url as string
    const next = await answer(sessionId, { type: 'text', text: url, attachedFileUrls: [url] })
    expect(next.status).toBe(200)
    expect(next.body.input).toMatchObject({ type: 'text input' })
    const end = await answer(sessionId, 'Ada')
    expect(texts(end.body)).toEqual([`Got: ${url}`])
    const answers = await svc.store.results.listAnswers((await svc.store.sessions.findById(sessionId))!.resultId)
    expect(answers[0]).toMatchObject({ blockId: 'f1', value: url })
  })

  it('takes several files for an input that allows several, joined with ", "', async () => {
    const { sessionId } = await sessionAtFileInput(svc, { isMultipleAllowed: true })
    const urls = await Promise.all(
      [PNG, PDF, JSON_TEXT].map(
        async (body, i) =>
          (await upload(svc, sessionId, body, { name: `f${i}${['.png', '.pdf', '.json'][i]}`, stream: true })).body.url as string,
      ),
    )
    expect(new Set(urls).size).toBe(3)
    const next = await answer(sessionId, { type: 'text', text: urls.join(', '), attachedFileUrls: urls })
    expect(next.body.input).toMatchObject({ type: 'text input' })
    expect(texts((await answer(sessionId, 'Ada')).body)).toEqual([`Got: ${urls.join(', ')}`])
  })

  it('keeps concurrent uploads to one session apart: each file intact under its own URL', async () => {
    const { sessionId } = await sessionAtFileInput(svc, { isMultipleAllowed: true })
    const bodies = Array.from({ length: 6 }, (_, i) => Buffer.alloc(300_000 + i, 65 + i))
    const answers = await Promise.all(
      bodies.map((body, i) => upload(svc, sessionId, body, { name: `part-${i}.txt`, type: 'text/plain', stream: true })),
    )
    expect(answers.map((a) => a.status)).toEqual(bodies.map(() => 201))
    for (const [i, uploaded] of answers.entries()) {
      expect((await fetchFile(svc, uploaded.body.url)).bytes.equals(bodies[i]!)).toBe(true)
    }
  })

  it('skips an optional input on a continueChat without a message; a required one asks again', async () => {
    const optional = await sessionAtFileInput(svc, { isRequired: false })
    expect((await answer(optional.sessionId, undefined)).body.input).toMatchObject({ type: 'text input' })
    const required = await sessionAtFileInput(svc)
    const again = await answer(required.sessionId, undefined)
    expect(again.status).toBe(200)
    expect(again.body.input).toMatchObject({ type: 'file input' })
  })
})

describe('what the answer may name', () => {
  it("refuses URLs that are not this session's uploads for this input: it asks again", async () => {
    const mine = await sessionAtFileInput(svc)
    const theirs = await sessionAtFileInput(svc)
    const theirUrl = (await upload(svc, theirs.sessionId, PNG, { name: 'a.png' })).body.url as string
    for (const url of [
      theirUrl,
      'https://evil.example/v1/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/a.png',
      'https://example.com/cat.png',
      'not a url',
    ]) {
      const refused = await answer(mine.sessionId, { type: 'text', text: url, attachedFileUrls: [url] })
      expect(refused.status).toBe(200)
      expect(refused.body.input).toMatchObject({ type: 'file input' })
    }
  })

  it.each(BAD_FILE_ANSWERS)('refuses $tries: it asks again and stores nothing', async ({ answer: spelled }) => {
    const { sessionId } = await sessionAtFileInput(svc)
    const own = new URL((await upload(svc, sessionId, PNG, { name: 'a.png' })).body.url as string)
    const url = spelled(own)
    expect(url).not.toBe(own.href)
    const refused = await answer(sessionId, { type: 'text', text: url, attachedFileUrls: [url] })
    expect(refused.status).toBe(200)
    expect(refused.body.input).toMatchObject({ type: 'file input' })
    expect(await svc.store.results.listAnswers((await svc.store.sessions.findById(sessionId))!.resultId)).toEqual([])
    // The very URL the upload answered still goes.
    const taken = await answer(sessionId, { type: 'text', text: own.href, attachedFileUrls: [own.href] })
    expect(taken.body.input).toMatchObject({ type: 'text input' })
  })
})

describe('bad uploads', () => {
  it.each(BAD_UPLOADS)('$attack: $status $code, nothing left behind', async ({ options, name, type, body, length, status, code }) => {
    const { sessionId } = await sessionAtFileInput(svc, options)
    const refused = await upload(svc, sessionId, body, { name, type, length, stream: length === undefined })
    expect(refused.status).toBe(status)
    expect(refused.body).toMatchObject({ error: { code, message: expect.any(String) } })
    expect(await stored()).toEqual({ rows: [], files: [] })
  })

  it('refuses an upload for another session, one that does not exist, and one not waiting for a file', async () => {
    expect((await upload(svc, 'no-such-session', PNG, { name: 'a.png' })).body).toMatchObject({ error: { code: 'session_not_found' } })
    expect((await upload(svc, '../../etc', PNG, { name: 'a.png' })).status).toBe(404)
    const { sessionId } = await sessionAtFileInput(svc)
    const url = (await upload(svc, sessionId, PNG, { name: 'a.png' })).body.url
    await answer(sessionId, url) // now at the text input
    const late = await upload(svc, sessionId, PNG, { name: 'b.png' })
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({ error: { code: 'conflict', message: expect.stringContaining('not waiting for a file') } })
    expect((await stored()).rows).toHaveLength(1)
  })

  it('refuses an upload to an expired session', async () => {
    const { sessionId } = await sessionAtFileInput(svc)
    svc.clock.advance(svc.config.sessionTtlSeconds * 1000 + 1)
    expect((await upload(svc, sessionId, PNG, { name: 'a.png' })).body).toMatchObject({ error: { code: 'session_expired' } })
    expect(await stored()).toEqual({ rows: [], files: [] })
  })

  it('enforces the service cap (UPLOAD_MAX_BYTES) over a larger block limit', async () => {
    const small = await uploadService(db, { uploads: { ...DEFAULT_CONFIG.uploads, maxBytes: 1000 } })
    try {
      const { sessionId } = await sessionAtFileInput(small, { sizeLimit: 50 })
      const refused = await upload(small, sessionId, Buffer.alloc(1001, 65), { name: 'a.txt', stream: true })
      expect(refused.body).toMatchObject({ error: { code: 'payload_too_large', details: { limitBytes: 1000 } } })
      expect((await upload(small, sessionId, Buffer.alloc(1000, 65), { name: 'a.txt', stream: true })).status).toBe(201)
    } finally {
      await small.close()
    }
  })
})

describe('file names', () => {
  const names: Array<[string, string, RegExp]> = [
    ['path separators (traversal)', '../../../etc/passwd', /^_\.\._\.\._etc_passwd$/],
    ['Windows separators', '..\\..\\boot.ini', /^_\.\._boot\.ini$/],
    ['control characters and a direction override', 'in\u0000voi\u001b[31mce\u202egnp.exe', /^invoi\[31mcegnp\.exe$/],
    ['10,000 characters', `${'a'.repeat(10_000)}.txt`, /^a{196}\.txt$/],
    ['only dots', '..', /^file$/],
  ]
  it.each(names)('%s: kept as a harmless name, never a place', async (_attack, name, expected) => {
    const { sessionId } = await sessionAtFileInput(svc)
    const uploaded = await upload(svc, sessionId, JSON_TEXT, { name, type: 'text/plain' })
    expect(uploaded.status).toBe(201)
    expect(uploaded.body.name).toMatch(expected)
    const { files } = await stored()
    expect(files).toHaveLength(1)
    expect(files[0]!.startsWith(`${join(svc.dataDir, 'uploads')}/`)).toBe(true)
    expect((await fetchFile(svc, uploaded.body.url)).bytes.equals(JSON_TEXT)).toBe(true)
  })
})

describe('serving files', () => {
  const dangerous: Array<[string, Buffer, string]> = [
    ['HTML', HTML, 'page.html'],
    ['SVG with scripts', SVG, 'logo.svg'],
    ['JavaScript', Buffer.from('alert(1)'), 'app.js'],
    ['XML', Buffer.from('<?xml version="1.0"?><x/>'), 'data.xml'],
  ]
  it.each(dangerous)('%s is a download of opaque bytes, never a page', async (_kind, body, name) => {
    const { sessionId } = await sessionAtFileInput(svc)
    const type = name.endsWith('.svg') ? 'image/svg+xml' : name.endsWith('.html') ? 'text/html' : 'text/plain'
    const file = await fetchFile(svc, (await upload(svc, sessionId, body, { name, type })).body.url)
    expect(file.headers.get('content-type')).toBe('application/octet-stream')
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('content-security-policy')).toContain('sandbox')
  })

  it('serves a private file only with the workspace secret token or a signed URL, which expires', async () => {
    const { sessionId } = await sessionAtFileInput(svc, { visibility: 'Private' })
    const { url } = (await upload(svc, sessionId, PDF, { name: 'cv.pdf', type: 'application/pdf' })).body
    expect((await fetchFile(svc, url)).status).toBe(401)
    expect((await fetchFile(svc, url, { authorization: `Bearer ${svc.tokens.publishable}` })).status).toBe(403)
    expect((await fetchFile(svc, url, { authorization: `Bearer ${svc.tokens.otherSecret}` })).status).toBe(404)
    const owner = await fetchFile(svc, url, { authorization: `Bearer ${svc.tokens.secret}` })
    expect(owner.status).toBe(200)
    expect(owner.bytes.equals(PDF)).toBe(true)
    expect(owner.headers.get('cache-control')).toBe('private, no-store')

    const fileId = new URL(url).pathname.split('/')[3]
    expect((await svc.call('POST', `/v1/files/${fileId}/signedUrl`, { token: svc.tokens.otherSecret })).status).toBe(404)
    const signed = await svc.call('POST', `/v1/files/${fileId}/signedUrl`, { token: svc.tokens.secret })
    expect(signed.status).toBe(200)
    expect((await fetchFile(svc, signed.body.url)).bytes.equals(PDF)).toBe(true)
    const forged = signed.body.url.replace(/signature=[\w-]+/, 'signature=AAAA')
    expect((await fetchFile(svc, forged)).status).toBe(401)
    svc.clock.advance(11 * 60 * 1000)
    expect((await fetchFile(svc, signed.body.url)).status).toBe(401)
  })

  it('serves a public file to whoever has its URL, and nothing for a guessed id', async () => {
    const { sessionId } = await sessionAtFileInput(svc)
    const { url } = (await upload(svc, sessionId, PNG, { name: 'a.png' })).body
    expect((await fetchFile(svc, url)).status).toBe(200)
    const guessed = url.replace(/files\/[\w-]+\//, 'files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/')
    expect((await fetchFile(svc, guessed)).status).toBe(404)
  })
})

describe('clean-up', () => {
  it('deletes the files of purged sessions that no answer names, and keeps those answered', async () => {
    const sent = await sessionAtFileInput(svc)
    const sentUrl = (await upload(svc, sent.sessionId, PNG, { name: 'kept.png' })).body.url
    await answer(sent.sessionId, sentUrl)
    const abandoned = await sessionAtFileInput(svc)
    await upload(svc, abandoned.sessionId, PNG, { name: 'gone.png' })
    expect((await stored()).files).toHaveLength(2)

    svc.clock.advance(svc.config.sessionTtlSeconds * 1000 + 2 * SESSION_PURGE_GRACE_MS)
    const totals = await purgeExpired(
      svc.store,
      svc.clock.now(),
      { graceMs: SESSION_PURGE_GRACE_MS, idleBucketMs: 3_600_000, batch: 10 },
      svc.integrations.files,
    )
    expect(totals).toMatchObject({ sessions: 2, files: 1 })
    const { rows, files } = await stored()
    expect(rows).toMatchObject([{ name: 'kept.png' }])
    expect(files).toHaveLength(1)
    expect((await fetchFile(svc, sentUrl)).status).toBe(200)
  })

  it.each(NAMED_NOT_SENT)('deletes a file never sent whatever names it: $tries', async ({ answeredIn }) => {
    const owner = await sessionAtFileInput(svc, { isRequired: false })
    const { url } = (await upload(svc, owner.sessionId, PNG, { name: 'never-sent.png' })).body
    const answering = answeredIn === 'its own conversation' ? owner : await sessionAtFileInput(svc, { isRequired: false })
    expect((await answer(answering.sessionId, undefined)).body.input).toMatchObject({ type: 'text input' })
    expect((await answer(answering.sessionId, `see ${url}`)).status).toBe(200)
    const answers = await svc.store.results.listAnswers(answering.resultId)
    expect(answers.map((a) => a.value)).toContain(`see ${url}`)

    svc.clock.advance(svc.config.sessionTtlSeconds * 1000 + 2 * SESSION_PURGE_GRACE_MS)
    const totals = await purgeExpired(
      svc.store,
      svc.clock.now(),
      { graceMs: SESSION_PURGE_GRACE_MS, idleBucketMs: 3_600_000, batch: 10 },
      svc.integrations.files,
    )
    expect(totals.files).toBe(1)
    expect(await stored()).toEqual({ rows: [], files: [] })
    expect((await fetchFile(svc, url)).status).toBe(404)
  })

  it("deletes a result's files with the result, through the results API, and no other result's", async () => {
    const { flowId, sessionId, resultId } = await sessionAtFileInput(svc, { isMultipleAllowed: true })
    const { url } = (await upload(svc, sessionId, PNG, { name: 'a.png' })).body
    await upload(svc, sessionId, PDF, { name: 'b.pdf' })
    const other = await sessionAtFileInput(svc)
    const otherUrl = (await upload(svc, other.sessionId, PNG, { name: 'c.png' })).body.url
    const deleted = await svc.call('DELETE', `/v1/flows/${flowId}/results/${resultId}`, { token: svc.tokens.secret })
    expect(deleted.status).toBe(200)
    expect((await fetchFile(svc, url)).status).toBe(404)
    expect((await fetchFile(svc, otherUrl)).status).toBe(200)
    expect((await stored()).files).toHaveLength(1)
  })
})

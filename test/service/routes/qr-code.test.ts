import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { qrCodeUrl } from '../../../src/service/engine/blocks/qr-code'
import { QrCodeImages } from '../../../src/service/qr-codes/qr-code-images'
import { DRAWN_QR_TEXTS, REFUSED_QR_TEXTS } from '../fixtures/qr-texts'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { captureLogs } from '../helpers/logs'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

/** What a phone's camera would read from the picture the service serves. */
async function decode(path: string): Promise<string | undefined> {
  const res = await svc.app.request(path)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('image/png')
  const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data
}

const qrFlow = () => ({
  version: '6',
  name: 'Ticket',
  events: [{ id: 'ev', outgoingEdgeId: 'e1', graphCoordinates: { x: 0, y: 0 }, type: 'start' }],
  groups: [
    {
      id: 'g1',
      title: 'Ticket',
      graphCoordinates: { x: 0, y: 0 },
      blocks: [
        {
          id: 'qr',
          type: 'qr-code',
          options: { action: 'Generate a QR Code', data: 'https://tickets.example/{{Ticket}}', saveUrlInVariableId: 'vUrl' },
        },
      ],
    },
  ],
  edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
  variables: [
    { id: 'vTicket', name: 'Ticket', isPrefillable: true },
    { id: 'vUrl', name: 'Url' },
  ],
})

describe('QR code block', () => {
  it('shows the code as an image the service serves, which decodes to its text, the text as its alternative', async () => {
    const flow = await importOverHttp(svc, qrFlow())
    await publishOverHttp(svc, flow.id)
    // A visitor's value with characters that could leave a URL parameter or an attribute.
    const ticket = 'A&b=1 "<x>"#frag'
    const res = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: { prefilledVariables: { Ticket: ticket } } })
    const [message] = res.body.messages
    const text = `https://tickets.example/${ticket}`
    expect(message).toEqual({ id: 'qr', type: 'image', content: { url: qrCodeUrl(text), clickLink: { alt: text } } })
    expect(message.content.url.startsWith('/v1/qr-code?text=')).toBe(true)
    expect(await decode(message.content.url)).toBe(text)
  })

  it('is served to any site, cached for good', async () => {
    const res = await svc.app.request(qrCodeUrl('héllo ✓'))
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(res.headers.get('cache-control')).toContain('immutable')
  })

  it.each(DRAWN_QR_TEXTS)('draws $kind, and a camera reads it back', async ({ text }) => {
    expect(await decode(qrCodeUrl(text))).toBe(text)
  })

  it.each(REFUSED_QR_TEXTS)('refuses $tries: 400 with the error body, nothing logged', async ({ text }) => {
    const logs = captureLogs({ level: 'warn' })
    try {
      const refused = await svc.call('GET', qrCodeUrl(text))
      expect(refused.status).toBe(400)
      expect(errorBodySchema.parse(refused.body).error.code).toBe('invalid_query')
      expect(logs.lines).toEqual([])
    } finally {
      logs.restore()
    }
  })

  it('refuses a request without a text', async () => {
    expect((await svc.call('GET', '/v1/qr-code')).status).toBe(400)
  })
})

describe('drawing QR codes for many clients', () => {
  /** A distinct text of 1,000 characters (a slow code to draw) per number. */
  const slowText = (n: number) => `${n}:`.padEnd(1_000, 'abcdefghij')
  const ask = async (text: string, client: string): Promise<Response> =>
    svc.app.request(qrCodeUrl(text), { headers: { 'x-forwarded-for': client } })

  it('one client asking for many codes waits behind itself: past its share it is refused, and another client is drawn next', async () => {
    await svc.close()
    const qrCodes = new QrCodeImages({ perClient: 3 })
    svc = await createTestService(db, { app: { qrCodes } })
    try {
      const finished: string[] = []
      const flood = Array.from({ length: 8 }, (_, n) =>
        ask(slowText(n), '2001:db8:5:5::1').then((res) => {
          if (res.status === 200) finished.push(`flood ${n}`)
          return res
        }),
      )
      // The first refusal comes once the client holds its share (one drawing under way, two waiting).
      await Promise.race(flood.map((res) => res.then((r) => (r.status === 429 ? r : new Promise<never>(() => undefined)))))
      const other = ask(slowText(100), '198.51.100.20').then((res) => {
        finished.push('other')
        return res
      })
      const answers = await Promise.all(flood)
      expect((await other).status).toBe(200)
      expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
      const refused = answers.find((res) => res.status === 429)!
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(errorBodySchema.parse(await refused.json()).error.code).toBe('rate_limited')
      // The other client waited for the drawing under way at most, not for the flood's queue.
      expect(finished.indexOf('other')).toBeLessThanOrEqual(1)
    } finally {
      await qrCodes.close()
    }
  })

  it('draws a text once: asked again while it is drawn, or after, the same picture comes back without a turn', async () => {
    await svc.close()
    const qrCodes = new QrCodeImages({ perClient: 1 })
    svc = await createTestService(db, { app: { qrCodes } })
    try {
      const text = slowText(7)
      const together = await Promise.all([1, 2, 3].map(() => ask(text, '203.0.113.9')))
      expect(together.map((res) => res.status)).toEqual([200, 200, 200])
      const again = await ask(text, '203.0.113.9')
      const pictures = await Promise.all([...together, again].map(async (res) => Buffer.from(await res.arrayBuffer())))
      expect(pictures.every((picture) => picture.equals(pictures[0]!))).toBe(true)
    } finally {
      await qrCodes.close()
    }
  })
})

import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { qrCodeUrl } from '../../../src/service/engine/blocks/qr-code'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
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

  it('is served to any site, cached for good, and refuses texts it would not encode', async () => {
    const res = await svc.app.request(qrCodeUrl('héllo ✓'))
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect(await decode(qrCodeUrl('héllo ✓'))).toBe('héllo ✓')
    for (const path of ['/v1/qr-code', '/v1/qr-code?text=', qrCodeUrl('x'.repeat(1001))]) {
      const refused = await svc.call('GET', path)
      expect(refused.status).toBe(400)
      expect(errorBodySchema.parse(refused.body).error.code).toBe('invalid_query')
    }
  })
})

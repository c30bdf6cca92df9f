import type { Hono } from 'hono'
import QRCode from 'qrcode'
import type { AppContext } from '../context'
import { MAX_QR_TEXT, QR_CODE_PATH } from '../engine/blocks/qr-code'
import { clientAddress } from '../http/client-address'
import { HttpError } from '../http/errors'

/**
 * `GET /v1/qr-code?text=…`: the PNG of a QR code block's code (engine/blocks/qr-code.ts), drawn by
 * the `qrcode` library. No token, like the chat: a page on any site shows it as an image. It is a
 * pure function of its text, so it is cached for good; the text is bounded and each request
 * counts against the visitor's chat rate limit.
 */
export function registerQrCodeRoutes(app: Hono, ctx: Pick<AppContext, 'limiters' | 'config'>): void {
  app.get(QR_CODE_PATH, async (c) => {
    await ctx.limiters.chat.consume(`chat:${clientAddress(c, ctx.config.trustProxyHops)}`)
    const text = c.req.query('text') ?? ''
    if (text === '' || text.length > MAX_QR_TEXT) {
      throw new HttpError('invalid_query', `text is the code's text: 1 to ${MAX_QR_TEXT} characters.`, [{ path: 'text', message: `Got ${text.length} characters` }])
    }
    const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 })
    return c.body(new Uint8Array(png), 200, {
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    })
  })
}

import type { Hono } from 'hono'
import type { AppContext } from '../context'
import { clientKey } from '../http/client-address'
import { chatRateKey } from '../http/rate-limit'
import { QR_CODE_PATH } from '../qr-codes/qr-code-images'

/**
 * `GET /v1/qr-code?text=…`: the picture of a QR code block's code. No token, like the chat: a page
 * on any site shows it as an image. It is a pure function of its text, so it is cached for good;
 * each request counts against the visitor's chat rate limit, and the drawing against its client's
 * turns (qr-codes/).
 */
export function registerQrCodeRoutes(app: Hono, ctx: Pick<AppContext, 'limiters' | 'config' | 'qrCodes'>): void {
  app.get(QR_CODE_PATH, async (c) => {
    await ctx.limiters.chat.consume(chatRateKey(c, ctx.config.trustProxyHops))
    const png = await ctx.qrCodes.png(c.req.query('text') ?? '', clientKey(c, ctx.config.trustProxyHops))
    return c.body(png, 200, {
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    })
  })
}

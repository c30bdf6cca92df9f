import type { Hono } from 'hono'
import { QR_CODE_PATH, qrCodePng } from '../chat/qr-code-image'
import type { AppContext } from '../context'
import { chatRateKey } from '../http/rate-limit'

/**
 * `GET /v1/qr-code?text=…`: the picture of a QR code block's code. No token, like the chat: a page
 * on any site shows it as an image. It is a pure function of its text, so it is cached for good;
 * each request counts against the visitor's chat rate limit.
 */
export function registerQrCodeRoutes(app: Hono, ctx: Pick<AppContext, 'limiters' | 'config'>): void {
  app.get(QR_CODE_PATH, async (c) => {
    await ctx.limiters.chat.consume(chatRateKey(c, ctx.config.trustProxyHops))
    return c.body(await qrCodePng(c.req.query('text') ?? ''), 200, {
      'Content-Type': 'image/png',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    })
  })
}

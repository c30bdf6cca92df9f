import type { Context, Hono } from 'hono'
import { stream } from 'hono/streaming'
import { FILE_PATH_PREFIX, fileUrl, uploadPath } from '../../protocol/uploads'
import { receiveUpload } from '../chat/upload-service'
import type { AppContext } from '../context'
import { authenticate } from '../http/auth'
import { clientKey } from '../http/client-address'
import { HttpError } from '../http/errors'
import { serviceBase } from '../http/service-base'
import { isResourceRef } from '../ids'
import { declaredType } from '../uploads/content-check'
import { contentDisposition } from '../uploads/file-names'
import { chatGates } from './chat-gate'

/** `uploadPath` with its parameter named for the router. */
const UPLOADS_ROUTE = uploadPath('{sessionId}').replace('%7BsessionId%7D', ':sessionId')

const UPLOAD_CORS = { methods: 'POST, OPTIONS', headers: 'Content-Type' }

/**
 * Types a browser may show in place: pictures, sound, video and PDF. Everything else (HTML, SVG,
 * XML, scripts, text whatever its name, anything unknown) is a download of opaque bytes, so an uploaded file
 * can never run as a page of the service's origin.
 */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf)$/

/**
 * File uploads for a pending file input (POST `…/uploads`, through the session's visitor gate
 * like streamMessage) and the files themselves (GET `/v1/files/{id}/{name}`): public files to whoever
 * has the unguessable URL, private ones with the workspace's secret token or a signed URL.
 */
export function registerUploadRoutes(app: Hono, ctx: AppContext): void {
  const { config } = ctx
  const files = ctx.integrations.files
  const gates = chatGates(ctx)
  const ref = (value: string) => (isResourceRef(value) ? value : '')
  const base = (c: Context) => serviceBase(c, config.publicUrl)

  app.options(UPLOADS_ROUTE, gates.preflight('session', UPLOAD_CORS))

  app.post(UPLOADS_ROUTE, gates.session, async (c) => {
    const length = c.req.header('content-length')
    const uploaded = await receiveUpload(
      ctx,
      files,
      c.var.gate,
      {
        name: c.req.query('name'),
        contentType: declaredType(c.req.header('content-type')),
        contentLength: length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined,
        body: c.req.raw.body,
        base: base(c),
        client: clientKey(c, config.trustProxyHops),
      },
      c.req.raw.signal,
    )
    return c.json(uploaded, 201)
  })

  // A short-lived URL to a private file, for the workspace that owns it.
  app.post(`${FILE_PATH_PREFIX}:fileId/signedUrl`, async (c) => {
    const caller = await authenticate(c, ctx.auth, ['secret'])
    const record = await ctx.store.uploads.findById(ref(c.req.param('fileId')))
    if (!record || record.workspaceId !== caller.workspaceId) throw notFound()
    const { expires, signature } = files.signedQuery(record.id, ctx.now())
    const url = `${fileUrl(base(c), record.id, record.name)}?expires=${expires}&signature=${signature}`
    return c.json({ url, expiresAt: new Date(expires * 1000).toISOString() })
  })

  app.get(`${FILE_PATH_PREFIX}:fileId/:name`, async (c) => {
    const fileId = ref(c.req.param('fileId'))
    const record = fileId ? await ctx.store.uploads.findById(fileId) : undefined
    if (!record) throw notFound()
    if (record.private && !files.verifies(record.id, c.req.query('expires'), c.req.query('signature'), ctx.now())) {
      const caller = await authenticate(c, ctx.auth, ['secret'])
      if (caller.workspaceId !== record.workspaceId) throw notFound()
    }
    const body = await files.storage.open(record.storageKey)
    if (!body) throw notFound()
    const inline = INLINE.test(record.type)
    c.header('Content-Type', inline ? record.type : 'application/octet-stream')
    c.header('Content-Length', String(record.size))
    c.header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', record.name))
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    c.header('Cache-Control', record.private ? 'private, no-store' : 'public, max-age=86400')
    return stream(c, async (out) => {
      out.onAbort(() => void body.destroy())
      for await (const chunk of body) await out.write(chunk as Uint8Array)
    })
  })
}

const notFound = () => new HttpError('not_found', 'No such file.')

import { MAX_QR_BYTES, MAX_QR_TEXT, QR_CODE_PATH, QR_ERROR_CORRECTION, qrTextProblem } from '../engine/blocks/qr-code'
import { HttpError } from '../http/errors'
import { QrCodeRenderer, type QrRendererOptions } from './qr-code-renderer'

export { QR_CODE_PATH }

/**
 * The pictures of QR code blocks' codes (engine/blocks/qr-code.ts), as `GET /v1/qr-code` serves
 * them. A code is a pure function of its text, so each picture is drawn once: kept in memory (the
 * most recently asked, up to `cacheBytes`), and asked again while it is being drawn, the same
 * drawing is awaited. Drawing happens on a worker thread, in turns per client (qr-code-renderer.ts).
 */
export interface QrCodeImagesOptions extends Omit<QrRendererOptions, 'draw'> {
  cacheBytes?: number
}

/** Grey levels, one byte a pixel, each row filtered against the one above: a third of the CPU of the library's default RGBA. */
const DRAW = {
  type: 'png',
  errorCorrectionLevel: QR_ERROR_CORRECTION,
  margin: 2,
  scale: 6,
  rendererOpts: { colorType: 0, filterType: 2 },
} as const

export const DEFAULT_QR_CACHE_BYTES = 16 * 1024 * 1024

export class QrCodeImages {
  private readonly renderer: QrCodeRenderer
  private readonly cacheBytes: number
  /** Pictures by text, least recently asked first. */
  private readonly cache = new Map<string, Uint8Array<ArrayBuffer>>()
  private cachedBytes = 0
  private readonly drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

  constructor(options: QrCodeImagesOptions = {}) {
    this.renderer = new QrCodeRenderer({ ...options, draw: DRAW as QrRendererOptions['draw'] })
    this.cacheBytes = options.cacheBytes ?? DEFAULT_QR_CACHE_BYTES
  }

  /** The PNG of `text` for `client` (its network); a text no code holds is a 400. */
  png(text: string, client: string): Promise<Uint8Array<ArrayBuffer>> {
    const problem = qrTextProblem(text)
    if (problem) {
      const limits = `1 to ${MAX_QR_TEXT} characters, at most ${MAX_QR_BYTES} bytes as UTF-8`
      return Promise.reject(
        new HttpError('invalid_query', `text is the code's text: ${limits}.`, [
          { path: 'text', message: `The code cannot be drawn: ${problem}` },
        ]),
      )
    }
    const cached = this.cache.get(text)
    if (cached) {
      this.cache.delete(text)
      this.cache.set(text, cached)
      return Promise.resolve(cached)
    }
    let drawing = this.drawing.get(text)
    if (!drawing) {
      drawing = this.renderer.render(text, client).then((png) => {
        this.remember(text, png)
        return png
      })
      const settled = () => this.drawing.delete(text)
      drawing.then(settled, settled)
      this.drawing.set(text, drawing)
    }
    return drawing
  }

  close(): Promise<void> {
    return this.renderer.close()
  }

  private remember(text: string, png: Uint8Array<ArrayBuffer>): void {
    const size = png.byteLength + text.length * 2
    if (size > this.cacheBytes) return
    this.cache.set(text, png)
    this.cachedBytes += size
    for (const [oldest, picture] of this.cache) {
      if (this.cachedBytes <= this.cacheBytes) break
      this.cache.delete(oldest)
      this.cachedBytes -= picture.byteLength + oldest.length * 2
    }
  }
}

let shared: QrCodeImages | undefined
/** One set of pictures for apps made without their own (tests, embedding): its thread starts with the first drawing. */
export const sharedQrCodeImages = (): QrCodeImages => (shared ??= new QrCodeImages())

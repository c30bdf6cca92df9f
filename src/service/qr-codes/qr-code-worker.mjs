// @ts-check
/**
 * The QR code worker: draws one code's PNG at a time with the `qrcode` library, off the service's
 * event loop and at a lower CPU priority. Plain JavaScript, like the sandbox worker: Node starts
 * workers from files without the TypeScript loader. It knows only how to draw; which texts may be
 * drawn, in what order and how often is the host's business (qr-code-renderer.ts).
 */
import { parentPort, workerData } from 'node:worker_threads'
import QRCode from 'qrcode'
import { lowerThreadPriority } from '../thread-priority.mjs'

if (!parentPort) throw new Error('qr-code-worker.mjs must run as a worker thread')
const port = parentPort
/** @type {import('qrcode').QRCodeToBufferOptions} */
const options = workerData.options

lowerThreadPriority()

port.on('message', (/** @type {{id: number, text: string}} */ job) => {
  QRCode.toBuffer(job.text, options).then(
    (png) => {
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice()
      port.postMessage({ id: job.id, png: bytes }, [bytes.buffer])
    },
    (/** @type {unknown} */ error) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  )
})
port.postMessage({ ready: true })

import { uploadedFileSchema, type UploadedFile } from '../../protocol/uploads'
import { TransportError } from './errors'

/**
 * Sends one file to a file input's upload address (protocol/uploads.ts): the raw bytes as the
 * body, its type as `Content-Type`, its name in the query. XMLHttpRequest rather than fetch: only
 * it reports how far an upload is (`onProgress`, 0 to 1). Rejects with a TransportError
 * (`aborted` when `signal` cancels it), so a failed upload can be tried again with the same file.
 */
export function uploadFile(url: string, file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TransportError('aborted', 'The upload was cancelled'))
    const request = new XMLHttpRequest()
    request.open('POST', `${url}?name=${encodeURIComponent(file.name)}`)
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    request.responseType = 'text'
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    const abort = () => request.abort()
    signal.addEventListener('abort', abort, { once: true })
    const settle = (action: () => void) => {
      signal.removeEventListener('abort', abort)
      action()
    }
    request.onabort = () => settle(() => reject(new TransportError('aborted', 'The upload was cancelled')))
    request.onerror = () => settle(() => reject(new TransportError('network', 'The upload could not reach the chat service')))
    request.onload = () =>
      settle(() => {
        let body: unknown
        try {
          body = JSON.parse(request.responseText)
        } catch {
          body = undefined
        }
        if (request.status < 200 || request.status >= 300) {
          const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error
          const message = typeof error?.message === 'string' ? error.message : `The chat service answered ${request.status}`
          return reject(
            new TransportError('http', message, { status: request.status, code: typeof error?.code === 'string' ? error.code : undefined }),
          )
        }
        const parsed = uploadedFileSchema.safeParse(body)
        if (parsed.success) resolve(parsed.data)
        else reject(new TransportError('invalid-response', 'The chat service answered the upload with something unreadable'))
      })
    request.send(file)
  })
}

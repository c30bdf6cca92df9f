import { type UploadedFile, uploadedFileSchema, uploadPath } from '../../protocol/uploads'
import type { ChatEndpoint } from './client'
import { TransportError } from './errors'
import { readAnswer } from './http'

/**
 * Sends one file to the session's uploads on the conversation's chat API (protocol/uploads.ts):
 * the raw bytes as the body, its type as `Content-Type`, its name in the query. XMLHttpRequest
 * rather than fetch: only it reports how far an upload is (`onProgress`, 0 to 1). The answer is
 * read as every other one (`readAnswer`): it rejects with a TransportError (`aborted` when
 * `signal` cancels it), so a failed upload can be tried again with the same file.
 */
export function uploadFile(
  { chatApi }: ChatEndpoint,
  sessionId: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new TransportError('aborted', 'The upload was cancelled'))
    const request = new XMLHttpRequest()
    request.open('POST', `${chatApi}${uploadPath(sessionId)}?name=${encodeURIComponent(file.name)}`)
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    request.responseType = 'text'
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    const abort = () => request.abort()
    signal.addEventListener('abort', abort, { once: true })
    const settle = (action: () => void) => {
      signal.removeEventListener('abort', abort)
      try {
        action()
      } catch (error) {
        reject(error)
      }
    }
    request.onabort = () => settle(() => reject(new TransportError('aborted', 'The upload was cancelled')))
    request.onerror = () => settle(() => reject(new TransportError('network', 'The upload could not reach the chat service')))
    // From the headers the service exposes (asking for one it does not expose logs a console error).
    const retryAfter = () => /^retry-after:\s*(.*?)\s*$/im.exec(request.getAllResponseHeaders())?.[1] ?? null
    request.onload = () => settle(() => resolve(readAnswer(uploadedFileSchema, request.status, request.responseText, retryAfter())))
    request.send(file)
  })
}

import { request } from './api'

/** The file name a response names (`Content-Disposition: attachment; filename="…"`), else `fallback`. */
function fileName(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')
  return match?.[1] ?? fallback
}

/**
 * Downloads an API file with the secret token. The token is not in a cookie, so a plain link
 * cannot carry it: the console fetches the file, then saves it from a Blob.
 */
export async function download(path: string, fallback: string): Promise<string> {
  const response = await request(path)
  const name = fileName(response, fallback)
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  // The click has handed the Blob to the download; the URL is released after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return name
}

/** The file name a response names (`Content-Disposition: attachment; filename="…"`), else `fallback`. */
function fileName(response: Response, fallback: string): string {
  const match = /filename="?([^";]+)"?/.exec(response.headers.get('Content-Disposition') ?? '')
  return match?.[1] ?? fallback
}

/**
 * Saves a file the API answered (fetched with the secret token: the token is not in a cookie, so
 * a plain link cannot carry it) from a Blob, under the name it gives.
 */
export async function download(response: Response, fallback: string): Promise<string> {
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

import type { CDPSession } from 'playwright-core'

/** One response as the network saw it. */
export interface Transfer {
  url: string
  /** Bytes received for it (headers and body, compressed), 0 when it came from the cache. */
  bytes: number
  fromCache: boolean
}

/** Every response of one page load, read from the DevTools protocol. */
export async function recordTransfers(session: CDPSession): Promise<() => Transfer[]> {
  const byId = new Map<string, Transfer>()
  await session.send('Network.enable')
  session.on('Network.responseReceived', (event) => {
    byId.set(event.requestId, {
      url: event.response.url,
      bytes: 0,
      fromCache: event.response.fromDiskCache === true || event.response.fromPrefetchCache === true,
    })
  })
  session.on('Network.requestServedFromCache', (event) => {
    const transfer = byId.get(event.requestId)
    if (transfer) transfer.fromCache = true
  })
  session.on('Network.loadingFinished', (event) => {
    const transfer = byId.get(event.requestId)
    if (transfer) transfer.bytes = event.encodedDataLength
  })
  return () => [...byId.values()]
}

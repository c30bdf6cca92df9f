import { NETWORK_VARIANT_PARAM } from '../../protocol/sandbox-policy'

/**
 * The sandbox document to load: `sandboxUrl` resolved against the page, with `network=1` for the
 * variant whose policy allows requests. Only http(s) is accepted: the URL becomes a frame's
 * source, and a `javascript:` or `data:` URL there would not be a sandbox served with its own CSP.
 */
export function sandboxDocumentUrl(sandboxUrl: string, allowNetwork: boolean, base: string): URL | string {
  let url: URL
  try {
    url = new URL(sandboxUrl, base)
  } catch {
    return `The script sandbox URL ${JSON.stringify(sandboxUrl)} is not a valid URL`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `The script sandbox URL must be an http(s) URL, not ${JSON.stringify(url.protocol)}`
  }
  url.hash = ''
  if (allowNetwork) url.searchParams.set(NETWORK_VARIANT_PARAM.name, NETWORK_VARIANT_PARAM.value)
  else url.searchParams.delete(NETWORK_VARIANT_PARAM.name)
  return url
}

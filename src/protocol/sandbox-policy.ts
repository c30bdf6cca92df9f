/**
 * The script sandbox document as the widget and its server agree on it: where it is served, how
 * its network variant is asked for, and the Content Security Policy it runs under.
 */

/** Where the flow service serves the sandbox document; `v1` is the widget ↔ sandbox protocol. */
export const SANDBOX_BASE_PATH = '/sandbox/v1'
export const SANDBOX_DOCUMENT_PATH = `${SANDBOX_BASE_PATH}/sandbox.html`

/** The query that asks for the variant whose scripts may make requests: `?network=1`. */
export const NETWORK_VARIANT_PARAM = { name: 'network', value: '1' } as const

export const isNetworkVariant = (search: string): boolean =>
  new URLSearchParams(search).get(NETWORK_VARIANT_PARAM.name) === NETWORK_VARIANT_PARAM.value

/** What the network variant's scripts may connect to. */
export const SANDBOX_NETWORK_SOURCES = 'http: https: ws: wss:'

/**
 * The document's policy. Its script is allowed by digest only, so no script, module or
 * `importScripts` URL can be fetched from anywhere (not even its own server); `'unsafe-eval'` is
 * what lets the Worker build a flow script into a function, and applies to this document and its
 * blob: Worker only. The server sends it as a header (with `sandbox allow-scripts`, which keeps
 * the document an opaque origin even where it is opened without the iframe's sandbox attribute);
 * the document carries it too, as a `<meta>`, so a copy served without the header is still shut.
 * One document serves both variants, so its `<meta>` allows the network variant's requests and
 * the document adds NO_NETWORK_POLICY itself unless it was asked for that variant.
 */
export function sandboxPolicy(scriptHashes: readonly string[], options: { network: boolean; delivery: 'header' | 'meta' }): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.map((hash) => `'${hash}'`).join(' ')} 'unsafe-eval'`,
    'worker-src blob:',
    `connect-src ${options.network ? SANDBOX_NETWORK_SOURCES : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    ...(options.delivery === 'header' ? ['sandbox allow-scripts'] : []),
  ].join('; ')
}

/** The document's own addition when it is not the network variant. */
export const NO_NETWORK_POLICY = "connect-src 'none'"

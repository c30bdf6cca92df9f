import type { Context } from 'hono'

/**
 * Where the service is reached, as its own links (an uploaded file's URL) start: PUBLIC_URL when
 * configured, else the origin the request was made to.
 */
export function serviceBase(c: Context, publicUrl: string | undefined): string {
  return publicUrl ?? new URL(c.req.url).origin
}

import type { Context } from 'hono'
import type { AppContext } from '../context'
import { authenticate, type Caller } from '../http/auth'

/** Management calls: a secret token, counted against that token's rate limit. */
export function secretCaller(ctx: AppContext): (c: Context) => Promise<Caller> {
  return async (c) => {
    const caller = await authenticate(c, ctx.auth, ['secret'])
    await ctx.limiters.management.consume(`token:${caller.tokenId}`)
    return caller
  }
}

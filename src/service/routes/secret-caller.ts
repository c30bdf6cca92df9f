import type { Context } from 'hono'
import type { AppContext } from '../context'
import { flowNotFound } from '../flows/flow-service'
import { authenticate, type Caller } from '../http/auth'
import { isResourceRef } from '../ids'
import type { FlowRecord } from '../store/flows-repository'

/** Management calls: a secret token, counted against that token's rate limit. */
export function secretCaller(ctx: AppContext): (c: Context) => Promise<Caller> {
  return async (c) => {
    const caller = await authenticate(c, ctx.auth, ['secret'])
    await ctx.limiters.management.consume(`token:${caller.tokenId}`)
    return caller
  }
}

/** The flow the path's `flowId` names, of the secret caller's workspace; another workspace's answers like an unknown one. */
export function ownedFlowFinder(ctx: AppContext): (c: Context) => Promise<FlowRecord> {
  const caller = secretCaller(ctx)
  return async (c) => {
    const who = await caller(c)
    const flowId = c.req.param('flowId') ?? ''
    const flow = isResourceRef(flowId) ? await ctx.store.flows.findById(flowId) : undefined
    if (!flow || flow.workspaceId !== who.workspaceId) throw flowNotFound(flowId)
    return flow
  }
}

import { hasExpired, type StartChatResponse } from '../../protocol/index'
import type { CachedVersion } from '../flows/published-versions'
import type { ChatDeps } from './chat-deps'

/**
 * Where a verified user's conversation of a flow stands when they open it (on any device):
 * - running, on the flow's live version, idle less than the flow's `rememberUser.expiryHours`
 *   (and its session not expired): it goes on at the step it stands at (`response`);
 * - idle too long: a new conversation starts, and the visitor is told it expired (`expired`);
 * - ended, run on a version since replaced, or none yet: a new conversation starts.
 */
export async function usersConversation(
  deps: Pick<ChatDeps, 'store' | 'now'>,
  input: { flowId: string; version: CachedVersion; userId: string },
): Promise<{ response?: StartChatResponse; expired?: boolean }> {
  const latest = await deps.store.identity.latestConversation(input.flowId, input.userId)
  const session = latest?.session
  if (!latest || !session || latest.isCompleted || session.completedAt !== null || session.lastStep === null) return {}
  const now = deps.now().getTime()
  const expiryHours = input.version.snapshot.settings?.general?.rememberUser?.expiryHours
  if (Date.parse(session.expiresAt) <= now || hasExpired(Date.parse(session.lastActivityAt), now, expiryHours)) return { expired: true }
  if (session.publishedVersionId !== input.version.versionId) return {}
  const step = JSON.parse(session.lastStep) as StartChatResponse
  return {
    response: {
      ...step,
      sessionId: session.id,
      resultId: latest.resultId,
      flowId: input.flowId,
      publishedAt: session.publishedAt,
      resumed: true,
    },
  }
}

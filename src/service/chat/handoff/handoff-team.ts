import type {
  Agent,
  HandoffAgentsResponse,
  HandoffDetail,
  HandoffEvent,
  HandoffListResponse,
  HandoffStatus,
  HandoffSummary,
} from '../../../protocol/handoff'
import { HttpError } from '../../http/errors'
import type { Change, HandoffRecord } from '../../store/handoffs-repository'
import type { ChatDeps } from '../chat-deps'
import { endHandoff } from './handoff-resume'
import { apiEvent, summaryOf } from './handoff-views'

/**
 * The team's side: a secret token (the workspace's owner, named by the token's label) or an agent
 * token (a person, with the name and picture visitors see). Anyone of the team may read and claim
 * a workspace's conversations; only the person who claimed one (or a secret token) answers it,
 * sets its variables, transfers or ends it. Another workspace's handoff answers as unknown.
 */
export interface TeamMember {
  tokenId: string
  workspaceId: string
  kind: 'secret' | 'agent'
  agent: Agent
}

const PAGE = 50

export async function listHandoffs(
  deps: ChatDeps,
  member: TeamMember,
  query: { statuses: HandoffStatus[]; cursor?: string },
): Promise<HandoffListResponse> {
  const before = query.cursor === undefined ? undefined : readCursor(query.cursor)
  const rows = await deps.store.handoffs.list(member.workspaceId, query.statuses, PAGE + 1, before)
  const page = rows.slice(0, PAGE)
  const last = page[page.length - 1]
  return {
    handoffs: page.map((row) => summaryOf(row, row)),
    ...(rows.length > PAGE && last ? { nextCursor: Buffer.from(`${last.requestedAt}|${last.id}`).toString('base64url') } : {}),
  }
}

export async function handoffDetail(deps: ChatDeps, member: TeamMember, id: string): Promise<HandoffDetail> {
  const handoff = await teamHandoff(deps, member, id)
  const [summary, answers, result, events] = await Promise.all([
    deps.store.handoffs.summary(id),
    deps.store.results.listAnswers(handoff.resultId),
    deps.store.results.findForFlow(handoff.resultId, handoff.flowId),
    deps.store.handoffs.events(id, 0, 10_000),
  ])
  const values = result?.variables ?? {}
  return {
    handoff: summaryOf(handoff, summary ?? { flowName: '', lastMessage: null }),
    transcript: answers.map((answer) => ({ author: 'visitor' as const, text: answer.display ?? answer.value, at: answer.createdAt })),
    variables: handoff.visibleVariables.map(({ id: variableId, name }) => {
      const set = handoff.variables[name]
      const value = set ?? values[variableId]
      return {
        id: variableId,
        name,
        value: value === undefined || value === null ? null : Array.isArray(value) ? value.join(', ') : String(value),
      }
    }),
    events: events.map(apiEvent),
  }
}

export async function claimHandoff(deps: ChatDeps, member: TeamMember, id: string): Promise<HandoffSummary> {
  await teamHandoff(deps, member, id)
  const claimed = await change(deps, id, { kind: 'claim', agentTokenId: member.tokenId, agent: member.agent }, 'status', {
    status: 'live',
    agent: member.agent,
  })
  if (!claimed) throw new HttpError('conflict', 'This conversation is no longer waiting: someone else claimed it, or it ended.')
  return summary(deps, claimed)
}

export async function teamMessage(
  deps: ChatDeps,
  member: TeamMember,
  id: string,
  text: string,
  idempotencyKey?: string,
): Promise<HandoffEvent> {
  const handoff = answerable(member, await teamHandoff(deps, member, id))
  await deps.handoffs.messages.consume(`handoff-team:${member.tokenId}`)
  const appended = await deps.store.handoffs.append({
    handoffId: handoff.id,
    change: { kind: 'message' },
    type: 'message',
    body: { author: 'agent', text, agent: member.agent },
    now: deps.now().toISOString(),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  })
  if (!appended) throw notLive()
  return apiEvent(appended.event)
}

export async function teamTyping(deps: ChatDeps, member: TeamMember, id: string, typing: boolean): Promise<void> {
  const handoff = answerable(member, await teamHandoff(deps, member, id))
  await deps.handoffs.messages.consume(`handoff-team-typing:${member.tokenId}`)
  await deps.handoffs.hub.typing(handoff.id, handoff.workspaceId, { author: 'agent', typing, agent: member.agent })
}

/** Sets a variable the block shows to the person: the flow goes on with it. */
export async function setHandoffVariable(
  deps: ChatDeps,
  member: TeamMember,
  id: string,
  name: string,
  value: string,
): Promise<HandoffDetail> {
  const handoff = answerable(member, await teamHandoff(deps, member, id))
  if (!handoff.visibleVariables.some((variable) => variable.name === name)) {
    throw new HttpError('invalid_body', 'The handoff block does not show this variable to the person.', [
      { path: 'name', message: `Expected one of: ${handoff.visibleVariables.map((variable) => variable.name).join(', ') || '(none)'}` },
    ])
  }
  if (!(await deps.store.handoffs.setVariable(id, name, value))) throw notLive()
  return handoffDetail(deps, member, id)
}

export async function transferHandoff(deps: ChatDeps, member: TeamMember, id: string, agentTokenId: string): Promise<HandoffSummary> {
  answerable(member, await teamHandoff(deps, member, id))
  const target = (await deps.store.tokens.listByWorkspace(member.workspaceId)).find((token) => token.id === agentTokenId)
  if (target?.kind !== 'agent')
    throw new HttpError('invalid_body', 'Transfer to an agent token of this workspace.', [
      { path: 'agentTokenId', message: 'No agent token has this id' },
    ])
  const agent: Agent = {
    name: target.agentName ?? target.label ?? 'Agent',
    ...(target.agentAvatarUrl ? { avatarUrl: target.agentAvatarUrl } : {}),
  }
  const moved = await change(deps, id, { kind: 'transfer', agentTokenId, agent }, 'status', { status: 'live', agent })
  if (!moved) throw notLive()
  return summary(deps, moved)
}

/** The workspace's people a conversation can be handed to: ids, names and pictures, nothing of their tokens. */
export async function listAgents(deps: ChatDeps, member: TeamMember): Promise<HandoffAgentsResponse> {
  const tokens = await deps.store.tokens.listByWorkspace(member.workspaceId)
  return {
    agents: tokens
      .filter((token) => token.kind === 'agent')
      .map((token) => ({
        id: token.id,
        name: token.agentName ?? token.label ?? 'Agent',
        ...(token.agentAvatarUrl ? { avatarUrl: token.agentAvatarUrl } : {}),
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
  }
}

/** The person ends the conversation: the flow goes on from the block's edge with the variables they set. */
export async function endTeamHandoff(deps: ChatDeps, member: TeamMember, id: string): Promise<HandoffSummary> {
  const handoff = await teamHandoff(deps, member, id)
  if (handoff.status === 'live') answerable(member, handoff)
  const ended = await endHandoff(deps, id, { kind: 'end', status: 'ended' })
  if (!ended) throw new HttpError('conflict', 'This conversation has already ended.')
  return summary(deps, (await deps.store.handoffs.find(id)) ?? ended)
}

/** The handoff `id` of the member's workspace; another's answers as one that does not exist. */
async function teamHandoff(deps: ChatDeps, member: TeamMember, id: string): Promise<HandoffRecord> {
  const handoff = await deps.store.handoffs.find(id)
  if (!handoff || handoff.workspaceId !== member.workspaceId)
    throw new HttpError('not_found', 'This workspace has no handoff with this id.')
  return handoff
}

/** Only the person who claimed a live conversation (or a secret token) answers it. */
function answerable(member: TeamMember, handoff: HandoffRecord): HandoffRecord {
  if (handoff.status !== 'live') throw notLive()
  if (member.kind === 'agent' && handoff.agentTokenId !== member.tokenId) {
    throw new HttpError('forbidden', 'Another person has claimed this conversation.')
  }
  return handoff
}

async function change(
  deps: ChatDeps,
  id: string,
  what: Change,
  type: HandoffEvent['type'],
  body: Record<string, unknown>,
): Promise<HandoffRecord | undefined> {
  return (await deps.store.handoffs.append({ handoffId: id, change: what, type, body, now: deps.now().toISOString() }))?.record
}

async function summary(deps: ChatDeps, record: HandoffRecord): Promise<HandoffSummary> {
  const listed = await deps.store.handoffs.summary(record.id)
  return summaryOf(listed ?? record, listed ?? { flowName: '', lastMessage: null })
}

function readCursor(cursor: string): { requestedAt: string; id: string } {
  const [requestedAt = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|')
  if (Number.isNaN(Date.parse(requestedAt)) || id === '') {
    throw new HttpError('invalid_query', 'This cursor is not one a list gave.', [{ path: 'cursor', message: 'Malformed' }])
  }
  return { requestedAt, id }
}

const notLive = () => new HttpError('conflict', 'This conversation is not live: claim it first, or it has ended.')

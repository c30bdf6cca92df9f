import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import { type HandoffEvent, type HandoffStatus, MAX_HANDOFF_MESSAGE_LENGTH } from '../../protocol/handoff'
import { Confirm } from '../confirm'
import { When } from '../dates'
import {
  actionError,
  claim,
  detail,
  end,
  ownTokenId,
  reply,
  STATUS_LINES,
  setVariable,
  speaker,
  agents as teamAgents,
  transfer,
  typing,
  typingVisitors,
} from './inbox-state'
import { ReplyBox } from './reply-box'

export const STATUS_WORDS: Record<HandoffStatus, string> = {
  waiting: 'Waiting',
  live: 'Live',
  ended: 'Ended',
  unanswered: 'No one answered',
  left: 'The visitor left',
}

/** A stored event as a line of the transcript. */
function EventLine(props: { event: HandoffEvent }) {
  const { event } = props
  if (event.type === 'message')
    return (
      <li class={`line ${event.author}`}>
        <span class="who">{speaker(event)}</span> <span class="said">{event.text}</span> <When iso={event.at} />
      </li>
    )
  const text = event.type === 'status' ? STATUS_LINES[event.status](event.agent?.name) : 'The flow went on.'
  return <li class="line system">{text}</li>
}

/**
 * One conversation, whole, beside what a person does with it: the flow's part and its variables,
 * the live part as it comes, and claim, reply, set a variable, transfer, end. A refusal (someone
 * else claimed it first) is said plainly and the conversation shown as it now stands.
 */
export function ConversationPanel(props: { title: string; onClose(): void }) {
  const confirmingEnd = useSignal(false)
  const variableName = useSignal('')
  const variableValue = useSignal('')
  const target = useSignal('')
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => () => void (actionError.value = null), [])

  const open = detail.value
  const header = (
    <div class="panel-head">
      {/* One heading whether the conversation is loading or shown: focus put on it stays. */}
      <h2 id="conversation-title" tabIndex={-1} ref={heading}>
        {open?.handoff.flowName ?? props.title}
      </h2>
      <button type="button" class="quiet" onClick={props.onClose}>
        Close the conversation
      </button>
    </div>
  )
  const error = actionError.value && (
    <p class="error" role="alert">
      {actionError.value}
    </p>
  )
  if (!open)
    return (
      <section class="conversation-panel" aria-labelledby="conversation-title">
        {header}
        {error || <p class="loading">Loading the conversation…</p>}
      </section>
    )

  const { handoff } = open
  const live = handoff.status === 'live'
  const heldByOther = live && ownTokenId.value !== null && handoff.agentTokenId !== undefined && handoff.agentTokenId !== ownTokenId.value
  const mayAnswer = live && !heldByOther
  const agents = teamAgents.value.filter((item) => item.id !== handoff.agentTokenId)
  const variable = open.variables.find((item) => item.name === variableName.value) ?? open.variables[0]

  const submitVariable = async (event: Event) => {
    event.preventDefault()
    if (!variable) return
    if (await setVariable(variable.name, variableValue.value)) variableValue.value = ''
  }
  const submitTransfer = async (event: Event) => {
    event.preventDefault()
    const agent = agents.find((item) => item.id === (target.value || agents[0]?.id))
    if (agent && (await transfer(agent.id, agent.name))) heading.current?.focus()
  }

  return (
    <section class="conversation-panel" aria-labelledby="conversation-title">
      {header}
      <p class="conversation-status">
        {STATUS_WORDS[handoff.status]}
        {handoff.agent && ` · ${handoff.agent.name}${handoff.agentTokenId === ownTokenId.value ? ' (you)' : ''}`} · asked{' '}
        <When iso={handoff.requestedAt} />
      </p>
      {error}
      <div class="conversation-actions">
        {handoff.status === 'waiting' && (
          <button type="button" onClick={() => void claim()}>
            Claim the conversation
          </button>
        )}
        {mayAnswer && !confirmingEnd.value && (
          <button type="button" class="danger" onClick={() => (confirmingEnd.value = true)}>
            End the conversation
          </button>
        )}
        {heldByOther && <p class="help">{handoff.agent?.name ?? 'Another person'} is answering this conversation.</p>}
      </div>
      {confirmingEnd.value && (
        <Confirm
          question="End the conversation? The visitor goes on with the flow, with the variables you set."
          action="End it"
          onConfirm={async () => {
            confirmingEnd.value = false
            if (await end()) heading.current?.focus()
          }}
          onCancel={() => (confirmingEnd.value = false)}
        />
      )}
      <div class="conversation-body">
        <section class="transcript" aria-labelledby="transcript-title">
          <h3 id="transcript-title">Transcript</h3>
          <ol class="lines">
            {open.transcript.map((line, index) => (
              <li key={`flow-${index}`} class={`line ${line.author}`}>
                <span class="who">{line.author === 'flow' ? 'Flow' : 'Visitor'}</span> <span class="said">{line.text}</span>
              </li>
            ))}
            <li class="line system">Handed to your team.</li>
            {open.events.map((event) => (
              <EventLine key={event.seq} event={event} />
            ))}
          </ol>
          <p class="typing" aria-hidden={typingVisitors.value.has(handoff.id) ? undefined : 'true'}>
            {typingVisitors.value.has(handoff.id) ? 'The visitor is typing…' : ''}
          </p>
          {mayAnswer && <ReplyBox maxLength={MAX_HANDOFF_MESSAGE_LENGTH} onSend={reply} onTyping={typing} />}
        </section>
        <aside class="variables" aria-labelledby="variables-title">
          <h3 id="variables-title">Variables</h3>
          {open.variables.length === 0 ? (
            <p class="help">This flow shows no variables to your team.</p>
          ) : (
            <dl>
              {open.variables.map((item) => (
                <div key={item.id}>
                  <dt>{item.name}</dt>
                  <dd>{item.value ?? <span class="help">not set</span>}</dd>
                </div>
              ))}
            </dl>
          )}
          {mayAnswer && variable && (
            <form class="stacked-form" onSubmit={submitVariable}>
              <label for="variable-name">Variable to set</label>
              <select id="variable-name" value={variable.name} onChange={(event) => (variableName.value = event.currentTarget.value)}>
                {open.variables.map((item) => (
                  <option key={item.id} value={item.name}>
                    {item.name}
                  </option>
                ))}
              </select>
              <label for="variable-value">Value</label>
              <input
                id="variable-value"
                type="text"
                maxLength={10_000}
                value={variableValue.value}
                onInput={(event) => (variableValue.value = event.currentTarget.value)}
              />
              <button type="submit">Set the variable</button>
            </form>
          )}
          {mayAnswer && agents.length > 0 && (
            <form class="stacked-form" onSubmit={submitTransfer}>
              <label for="transfer-to">Hand the conversation to</label>
              <select
                id="transfer-to"
                value={target.value || agents[0]?.id}
                onChange={(event) => (target.value = event.currentTarget.value)}
              >
                {agents.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name}
                  </option>
                ))}
              </select>
              <button type="submit">Transfer</button>
            </form>
          )}
        </aside>
      </div>
    </section>
  )
}

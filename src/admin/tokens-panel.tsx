import { useSignal } from '@preact/signals'
import type { ApiToken, TokenKind } from '../protocol/management'
import { createToken, revokeToken } from '../protocol/management-api'
import { api, messageOf } from './api'
import { Confirm } from './confirm'
import { announce, signOut } from './session'
import { publishable, reloadTokens, rememberPublishable, tokens } from './workspace'

/** An agent's picture must be an https address (shown to visitors); the service checks it again. */
const isHttps = (value: string) => {
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * The workspace's tokens (never their values: the service keeps hashes), a new one shown once,
 * and revocation after confirming; revoking the token the console runs with signs the owner out.
 * A publishable token made here serves the snippets and the preview when none does yet. An agent
 * token is a person of the team who answers in the inbox: its label is the name visitors see,
 * with an optional picture.
 */
export function TokensPanel() {
  const made = useSignal<{ kind: string; value: string } | null>(null)
  const kind = useSignal<TokenKind>('publishable')
  const label = useSignal('')
  const avatar = useSignal('')
  const revoking = useSignal<ApiToken | null>(null)
  const error = useSignal<string | null>(null)
  const fail = (caught: unknown) => (error.value = messageOf(caught))

  const create = async (event: Event) => {
    event.preventDefault()
    const agent = kind.value === 'agent'
    const avatarUrl = agent ? avatar.value.trim() || undefined : undefined
    if (agent && !label.value.trim()) return void (error.value = 'Enter the name visitors will see for this person.')
    if (avatarUrl && !isHttps(avatarUrl)) return void (error.value = 'The picture must be an https:// address.')
    try {
      const name = label.value.trim()
      // An agent's name is also the token's label: the list names the person.
      const answer = await createToken(
        api,
        kind.value,
        name || undefined,
        agent ? { name, ...(avatarUrl ? { avatarUrl } : {}) } : undefined,
      )
      made.value = { kind: kind.value, value: answer.value }
      if (kind.value === 'publishable' && !publishable.value) rememberPublishable(answer.value, answer.token.id)
      label.value = ''
      avatar.value = ''
      error.value = null
      announce(`A ${kind.value} token was created. It is shown once: copy it now.`)
      await reloadTokens()
    } catch (caught) {
      fail(caught)
    }
  }
  const revoke = async (item: ApiToken) => {
    revoking.value = null
    try {
      await revokeToken(api, item.id)
      if (item.current) return signOut('You revoked the token this console used. Sign in with another secret token.')
      announce(`The token ${item.label ?? item.hint ?? item.id} is revoked.`)
      await reloadTokens()
    } catch (caught) {
      fail(caught)
    }
  }

  return (
    <section class="tokens" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <ul>
        {tokens.value?.map((item) => (
          <li key={item.id}>
            <span>
              {item.kind} · {item.label ?? 'no label'} · {item.hint ?? '…'}
              {item.current && ' (this console)'}
            </span>
            <button
              type="button"
              class="danger"
              aria-label={`Revoke the ${item.kind} token ${item.label ?? item.hint ?? item.id}`}
              onClick={() => (revoking.value = item)}
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {revoking.value && (
        <Confirm
          question={`Revoke the ${revoking.value.kind} token ${revoking.value.label ?? revoking.value.hint ?? ''}? Every page or program using it stops working at once.`}
          action="Revoke the token"
          onConfirm={() => revoke(revoking.value!)}
          onCancel={() => (revoking.value = null)}
        />
      )}
      {made.value && (
        <p class="made">
          Your new {made.value.kind} token, shown this once: <code>{made.value.value}</code>
        </p>
      )}
      <form class="inline-form" onSubmit={create}>
        <label for="token-kind">Kind</label>
        <select id="token-kind" value={kind.value} onChange={(event) => (kind.value = event.currentTarget.value as TokenKind)}>
          <option value="publishable">publishable</option>
          <option value="secret">secret</option>
          <option value="agent">agent (a person who answers)</option>
        </select>
        <label for="token-label">{kind.value === 'agent' ? 'Name' : 'Label'}</label>
        <input
          id="token-label"
          type="text"
          maxLength={kind.value === 'agent' ? 80 : 200}
          aria-describedby={kind.value === 'agent' ? 'token-agent-help' : undefined}
          value={label.value}
          onInput={(event) => (label.value = event.currentTarget.value)}
        />
        {kind.value === 'agent' && (
          <>
            <p id="token-agent-help" class="help">
              Shown to visitors beside this person's messages. An agent token signs in to the inbox only: it can read and answer
              conversations, not change flows or tokens.
            </p>
            <label for="token-avatar">Picture address (optional, https)</label>
            <input
              id="token-avatar"
              type="url"
              maxLength={2_000}
              value={avatar.value}
              onInput={(event) => (avatar.value = event.currentTarget.value)}
            />
          </>
        )}
        <button type="submit">Create a token</button>
      </form>
    </section>
  )
}

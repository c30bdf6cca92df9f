import { useSignal, useSignalEffect } from '@preact/signals'
import type { ApiToken } from '../../protocol/management'
import { createToken, listTokens } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { announce, publishable, rememberPublishable, token } from '../session'

/**
 * The publishable token snippets and the preview carry. The service keeps hashes only, so the
 * console knows a token's value only when it made it or the owner pastes it; it makes one only
 * when the owner asks (a token is a credential in every page that embeds the flow).
 */
export function PublishableToken() {
  const existing = useSignal<ApiToken[] | null>(null)
  const pasted = useSignal('')
  const error = useSignal<string | null>(null)

  useSignalEffect(() => {
    if (!token.value) return
    listTokens(api)
      .then((answer) => (existing.value = answer.tokens.filter((item) => item.kind === 'publishable')))
      .catch((caught) => (error.value = messageOf(caught)))
  })

  const create = async () => {
    try {
      const made = await createToken(api, 'publishable', 'console embeds')
      rememberPublishable(made.value)
      error.value = null
      announce('A publishable token was created; the snippets carry it.')
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }

  if (publishable.value) {
    return (
      <p class="help">
        Snippets carry the publishable token …{publishable.value.slice(-4)}.{' '}
        <button type="button" class="link" onClick={() => rememberPublishable('')}>
          Use another
        </button>
      </p>
    )
  }
  const count = existing.value?.length ?? 0
  return (
    <div class="token-choice">
      <p>
        {existing.value === null
          ? 'Reading the workspace’s tokens…'
          : count === 0
            ? 'Embeds need a publishable token, and this workspace has none yet. It is public by design: it can only read published flows.'
            : `This workspace has ${count} publishable token${count === 1 ? '' : 's'} (${existing.value.map((item) => item.hint ?? item.label ?? item.id).join(', ')}). The service keeps no copy of a token's value: paste one, or create one for the snippets.`}
      </p>
      {count > 0 && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            if (/^fs_pk_/.test(pasted.value.trim())) rememberPublishable(pasted.value.trim())
            else error.value = 'A publishable token begins with fs_pk_.'
          }}
        >
          <label for="publishable-paste">Publishable token</label>
          <input
            id="publishable-paste"
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={pasted.value}
            onInput={(event) => (pasted.value = event.currentTarget.value)}
          />
          <button type="submit">Use it</button>
        </form>
      )}
      <button type="button" onClick={create}>
        Create a publishable token
      </button>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </div>
  )
}

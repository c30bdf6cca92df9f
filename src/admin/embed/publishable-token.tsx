import { useSignal } from '@preact/signals'
import { tokenKindOf } from '../../protocol/management'
import { createToken } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { announce } from '../session'
import { forgetPublishable, isListedPublishable, publishable, reloadTokens, rememberPublishable, tokens } from '../workspace'

/**
 * The publishable token snippets and the preview carry. The service keeps hashes only, so the
 * console knows a token's value only when it made it or the owner pastes it; it makes one only
 * when the owner asks (a token is a credential in every page that embeds the flow). The one in
 * use is remembered in this browser for the workspace (workspace.ts): pasted once, not in every tab.
 */
export function PublishableToken() {
  const pasted = useSignal('')
  const error = useSignal<string | null>(null)
  const existing = tokens.value?.filter((item) => item.kind === 'publishable') ?? null

  const create = async () => {
    try {
      const made = await createToken(api, 'publishable', 'console embeds')
      rememberPublishable(made.value, made.token.id)
      error.value = null
      announce('A publishable token was created; the snippets and the preview carry it.')
      await reloadTokens()
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  const paste = (event: Event) => {
    event.preventDefault()
    const value = pasted.value.trim()
    if (tokenKindOf(value) !== 'publishable') error.value = 'A publishable token begins with fs_pk_ and has 43 characters after it.'
    else if (!isListedPublishable(value)) error.value = 'This is not a publishable token of this workspace (or it was revoked).'
    else {
      rememberPublishable(value)
      error.value = null
      pasted.value = ''
      announce('The snippets and the preview carry this publishable token, in every tab of this browser.')
    }
  }

  if (publishable.value) {
    return (
      <p class="help">
        Snippets and the preview carry the publishable token {publishable.value.slice(0, 6)}…{publishable.value.slice(-4)}, remembered in
        this browser.{' '}
        <button type="button" class="link" onClick={forgetPublishable}>
          Use another
        </button>
      </p>
    )
  }
  const count = existing?.length ?? 0
  return (
    <div class="token-choice">
      <p>
        {existing === null
          ? 'Reading the workspace’s tokens…'
          : count === 0
            ? 'Embeds and the preview need a publishable token, and this workspace has none yet. It is public by design: it can only read published flows.'
            : `This workspace has ${count} publishable token${count === 1 ? '' : 's'} (${existing.map((item) => item.hint ?? item.label ?? item.id).join(', ')}). The service keeps no copy of a token's value: paste one once (this browser remembers it), or create one.`}
      </p>
      {count > 0 && (
        <form class="inline-form" onSubmit={paste}>
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

import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import { listHandoffs } from '../protocol/handoffs-api'
import { tokenKindOf } from '../protocol/management'
import { listTokens } from '../protocol/management-api'
import { ApiError, apiWith, messageOf } from './api'
import { announce, signIn, signOutReason } from './session'

/**
 * Asks for the workspace's secret token, or a person's agent token, and checks it with the service
 * before keeping it (an agent token by reading the inbox, the only thing it may do): a
 * publishable token, an unknown or a revoked one is refused here with the service's words.
 */
export function SignIn() {
  const value = useSignal('')
  const error = useSignal<string | null>(null)
  const busy = useSignal(false)
  const field = useRef<HTMLInputElement>(null)
  // The form is all the page has: focus starts in its field (after a sign-out too).
  useEffect(() => field.current?.focus(), [])

  const submit = async (event: Event) => {
    event.preventDefault()
    const candidate = value.value.trim()
    if (!candidate) {
      error.value = 'Enter your secret token or agent token.'
      return
    }
    busy.value = true
    try {
      if (tokenKindOf(candidate) === 'agent') await listHandoffs(apiWith(candidate), { status: ['waiting'] })
      else await listTokens(apiWith(candidate))
      signIn(candidate)
      announce('Signed in.')
    } catch (caught) {
      error.value =
        caught instanceof ApiError && caught.status === 403
          ? 'This token may not manage the workspace: the console needs a secret token (fs_sk_…) or an agent token (fs_ak_…), not a publishable one.'
          : messageOf(caught)
    } finally {
      busy.value = false
    }
  }

  return (
    <main class="sign-in">
      <h1>Flow console</h1>
      {signOutReason.value && (
        <p class="notice" role="alert">
          {signOutReason.value}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <label for="secret-token">Secret token or agent token</label>
        <p id="secret-token-help" class="help">
          Your workspace's secret token (fs_sk_…), or your agent token (fs_ak_…) to answer conversations. It stays in this tab only and is
          forgotten when you close it.
        </p>
        <input
          id="secret-token"
          ref={field}
          type="password"
          autoComplete="off"
          spellcheck={false}
          aria-describedby={error.value ? 'secret-token-help secret-token-error' : 'secret-token-help'}
          aria-invalid={error.value ? 'true' : undefined}
          value={value.value}
          onInput={(event) => (value.value = event.currentTarget.value)}
        />
        {error.value && (
          <p id="secret-token-error" class="error" role="alert">
            {error.value}
          </p>
        )}
        <button type="submit" disabled={busy.value}>
          Sign in
        </button>
      </form>
    </main>
  )
}

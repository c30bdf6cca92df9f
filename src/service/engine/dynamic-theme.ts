import { MAX_URL_LENGTH } from '../../protocol/index'
import type { FlowIndex } from './core/flow-index'
import { substitute, type Variables } from './core/variables'

export type DynamicTheme = { hostAvatarUrl?: string; guestAvatarUrl?: string }

const SIDES = [
  ['hostAvatar', 'hostAvatarUrl'],
  ['guestAvatar', 'guestAvatarUrl'],
] as const

/**
 * The avatars a theme takes from variables (`{{Avatar}}` as the picture's address), filled in with
 * the values of now: sent with every step while the flow has such an avatar, so a picture set
 * mid-conversation shows from the next bubble on. A value may be an address or an emoji (the
 * widget shows one as text). An unset or overlong value is left out: the widget keeps the last.
 */
export function dynamicTheme(index: FlowIndex, variables: Variables): DynamicTheme | undefined {
  const chat = index.flow.theme?.chat
  let theme: DynamicTheme | undefined
  for (const [side, key] of SIDES) {
    const avatar = chat?.[side]
    const template = avatar?.isEnabled === true ? avatar.url : undefined
    if (typeof template !== 'string' || !template.includes('{{')) continue
    theme ??= {}
    const url = substitute(template, index, variables).trim()
    if (url !== '' && url.length <= MAX_URL_LENGTH) theme[key] = url
  }
  return theme
}

/** Options every mode shares: where the flow lives and how its chat runs. */
export interface CommonEmbedOptions {
  /** Flow id or public id (required). */
  flow: string
  apiHost?: string
  chatApiHost?: string
  token?: string
  sandboxUrl?: string
  scriptTimeout?: number
  allowScriptNetwork?: boolean
  /** Sent with `startChat`: `{ [variableName]: string | number | boolean }`. */
  prefilledVariables?: Record<string, string | number | boolean>
  /** Accessible name of the chat (and a launcher's window title); name each chat on a busy page. */
  label?: string
  /** Names the remembered conversation of this instance (default: element id, else per mode). */
  storageKey?: string
}

export interface StandardEmbedOptions extends CommonEmbedOptions {
  /** Where the chat goes: an element or a CSS selector; default `document.body`. */
  container?: Element | string
}

export interface BubbleEmbedOptions extends CommonEmbedOptions {
  placement?: 'left' | 'right'
  /** Launcher size (a number is pixels). */
  buttonSize?: number | string
  /** Distance from the viewport's edges. */
  offset?: number | string
  zIndex?: number
  maxWidth?: number | string
  maxHeight?: number | string
  buttonColor?: string
  iconColor?: string
  iconUrl?: string
  previewMessage?: string
  previewAvatar?: string
  /** Milliseconds before the preview message shows. */
  previewDelay?: number
  defaultOpen?: boolean
}

export interface PopupEmbedOptions extends CommonEmbedOptions {
  maxWidth?: number | string
  maxHeight?: number | string
  buttonColor?: string
  iconColor?: string
  /** Milliseconds after which the popup opens by itself. */
  autoShowDelay?: number
  defaultOpen?: boolean
}

type AnyOptions = BubbleEmbedOptions & PopupEmbedOptions & StandardEmbedOptions

/** Option name → attribute of the element it becomes. */
const ATTRIBUTE_OF: Partial<Record<keyof AnyOptions, string>> = {
  flow: 'flow',
  apiHost: 'api-host',
  chatApiHost: 'chat-api-host',
  token: 'token',
  sandboxUrl: 'sandbox-url',
  scriptTimeout: 'script-timeout',
  allowScriptNetwork: 'allow-script-network',
  placement: 'placement',
  buttonSize: 'button-size',
  offset: 'offset',
  zIndex: 'z-index',
  maxWidth: 'max-width',
  maxHeight: 'max-height',
  buttonColor: 'button-color',
  iconColor: 'icon-color',
  iconUrl: 'icon-url',
  label: 'label',
  storageKey: 'storage-key',
  previewMessage: 'preview-message',
  previewAvatar: 'preview-avatar',
  previewDelay: 'preview-delay',
  autoShowDelay: 'auto-show-delay',
  defaultOpen: 'default-open',
}

/** Writes options onto the element as attributes (booleans as present/absent). */
export function applyOptions(element: Element, options: Partial<AnyOptions>): void {
  for (const [key, attribute] of Object.entries(ATTRIBUTE_OF) as Array<[keyof AnyOptions, string]>) {
    const value = options[key]
    if (value === undefined || value === null) continue
    if (typeof value === 'boolean') element.toggleAttribute(attribute, value)
    else if (typeof value === 'string' || typeof value === 'number') element.setAttribute(attribute, String(value))
  }
}

/** Script-tag `data-*` attributes → options (`data-api-host` → `apiHost`, …). */
export function optionsFromDataset(dataset: DOMStringMap): Partial<AnyOptions> {
  const options: Record<string, string | boolean> = {}
  for (const key of Object.keys(ATTRIBUTE_OF)) {
    const value = dataset[key]
    if (value === undefined) continue
    options[key] = key === 'defaultOpen' || key === 'allowScriptNetwork' ? value !== 'false' : value
  }
  return options as Partial<AnyOptions>
}

import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { messageOf } from '../api'
import { TEMPLATES_FILE, type Template, type TemplatesFile } from '../templates/templates'

/** Where the service serves the console's files (src/service/routes/admin.ts). */
const TEMPLATES_URL = `/admin/assets/${TEMPLATES_FILE}`

/** The templates shipped with the service, read once per page. */
let loaded: Promise<Template[]> | undefined
function loadTemplates(): Promise<Template[]> {
  loaded ??= fetch(TEMPLATES_URL, { credentials: 'omit' }).then(async (response) => {
    if (!response.ok) throw new Error(`The templates could not be read (the service answered ${response.status}).`)
    const file = (await response.json()) as TemplatesFile
    return file.templates
  })
  loaded.catch(() => (loaded = undefined))
  return loaded
}

/** The templates, each with what it asks and a button that creates a flow from it. */
export function TemplatesList(props: { onCreate(template: Template): Promise<void> }) {
  const templates = useSignal<Template[] | null>(null)
  const error = useSignal<string | null>(null)
  const busy = useSignal<string | null>(null)
  useEffect(() => {
    loadTemplates()
      .then((list) => (templates.value = list))
      .catch((caught) => (error.value = messageOf(caught)))
  }, [])

  const create = async (template: Template) => {
    busy.value = template.id
    error.value = null
    try {
      await props.onCreate(template)
    } catch (caught) {
      error.value = `${template.name} could not be created: ${messageOf(caught)}`
    } finally {
      busy.value = null
    }
  }

  return (
    <>
      {templates.value === null && !error.value && <p class="help">Reading the templates…</p>}
      {templates.value && (
        <ul class="templates">
          {templates.value.map((template) => (
            <li key={template.id}>
              <h4>{template.name}</h4>
              <p class="help" id={`template-${template.id}`}>
                {template.description}
              </p>
              <button
                type="button"
                class="template-create"
                disabled={busy.value !== null}
                aria-describedby={`template-${template.id}`}
                onClick={() => create(template)}
              >
                Create “{template.name}”
              </button>
            </li>
          ))}
        </ul>
      )}
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </>
  )
}

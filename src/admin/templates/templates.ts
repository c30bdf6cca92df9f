/**
 * The console's templates: starter flows shipped with the service (the JSON files of this folder,
 * each a flow export), so that an owner can create a working flow before having a flow builder.
 * The build writes them into one file beside the console (dist/admin/templates.json) that the
 * console fetches when it offers them; a production install has them with nothing more, unlike
 * the demo's flows. docs/decisions/2026-11-28-console-templates.md
 */
export const TEMPLATES_FILE = 'templates.json'

export interface Template {
  /** The file's name without `.json`. */
  id: string
  /** The flow's name. */
  name: string
  /** What the flow asks, from its share page description (`settings.metadata.description`). */
  description: string
  /** The flow export, imported as is. */
  flow: Record<string, unknown>
}

export interface TemplatesFile {
  templates: Template[]
}

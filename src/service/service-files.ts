import { join } from 'node:path'

/**
 * The service's own folder: `src/service` when it runs from its sources (tsx), `build/service`
 * when it runs from its production build (`npm run build`), where every module is bundled into
 * files at that folder's top level and the files read at run time are copied to the same places
 * below it as in the sources. Either way the repository (or installed package) root is two levels up.
 */
const SERVICE_DIR = import.meta.dirname

/** A file or folder the service reads at run time, by its path below `src/service`. */
export const serviceFile = (path: string) => join(SERVICE_DIR, path)

/** The widget's build (the browser's scripts, chunks and sandbox document): dist/ at the root. */
export const WIDGET_DIST_DIR = join(SERVICE_DIR, '../../dist')

/** The console's build (its script and stylesheet, served at /admin): dist/admin, written by the same build. */
export const ADMIN_DIST_DIR = join(WIDGET_DIST_DIR, 'admin')

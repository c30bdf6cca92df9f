import type { Store } from '../store/store'
import type { Files } from '../uploads/files'

/**
 * What results own outside the database: files visitors uploaded. Deleting results deletes
 * their rows first (answers, logs, sessions and webhook deliveries go with them), then asks this
 * to remove their files, so no stored answer ever points at a file already gone.
 *
 * Uploads store their files per result: the results routes (and the command line through the
 * running service) pass `deleteResults` the uploads' own, `uploadedFiles`.
 */
export interface ResultFiles {
  removeForResults(flow: { id: string; workspaceId: string }, resultIds: readonly string[]): Promise<void>
}

export const NO_RESULT_FILES: ResultFiles = { removeForResults: async () => undefined }

/** Deleted results take the files visitors uploaded with them. */
export const uploadedFiles = (store: Store, files: Pick<Files, 'deleteResult'>): ResultFiles => ({
  async removeForResults(flow, resultIds) {
    for (const resultId of resultIds) await files.deleteResult(store, flow.workspaceId, resultId)
  },
})

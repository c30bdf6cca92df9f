import { describe, expect, it } from 'vitest'
import {
  acceptAttribute,
  acceptsFile,
  allowedTypes,
  captureAttribute,
  fileAnswer,
  fileIdOfUrl,
  uploadLimitBytes,
} from '../../src/protocol/uploads'

describe('the uploads contract', () => {
  it('reads the allowed types only when the block turns them on', () => {
    expect(allowedTypes({ allowedFileTypes: { isEnabled: false, types: ['.pdf'] } })).toBeUndefined()
    expect(allowedTypes({ allowedFileTypes: { isEnabled: true, types: [' .PDF ', 'image/*', ''] } })).toEqual([
      '.pdf',
      'image/*',
      'application/pdf',
    ])
    expect(allowedTypes({ allowedFileTypes: { isEnabled: true, types: [] } })).toBeUndefined()
  })

  const accepts: Array<[string, string[] | undefined, { name: string; type: string }, boolean]> = [
    ['anything when nothing is listed', undefined, { name: 'a.exe', type: '' }, true],
    ['a listed extension, whatever the case', ['.pdf'], { name: 'CV.PDF', type: '' }, true],
    ['a listed type', ['image/png'], { name: 'photo', type: 'image/png' }, true],
    ['a type under a listed family', ['image/*'], { name: 'x.heic', type: 'image/heic' }, true],
    ['neither', ['.pdf', 'image/*'], { name: 'notes.txt', type: 'text/plain' }, false],
    ['a family prefix that is not one', ['image/*'], { name: 'x', type: 'imagefoo/png' }, false],
  ]
  it.each(accepts)('accepts by name or type: %s', (_case, types, file, expected) => {
    expect(acceptsFile(types, file)).toBe(expected)
  })

  it('builds `accept` as browsers expect: the extensions, then their MIME types, and no capture token', () => {
    expect(acceptAttribute({ allowedFileTypes: { isEnabled: true, types: ['.jpg', '.png'] } })).toBe(
      '.jpg, .png, .jpeg, image/jpeg, image/jpg, image/png',
    )
    expect(acceptAttribute({ allowedFileTypes: { isEnabled: true, types: ['.pdf', 'image/png'] } })).toBe(
      '.pdf, .png, image/png, application/pdf',
    )
    const camera = { allowedFileTypes: { isEnabled: true, types: ['.jpg', 'capture=camera'] } }
    expect(acceptAttribute(camera)).toBe('.jpg, .jpeg, image/jpeg, image/jpg')
    expect(captureAttribute(camera)).toBe('environment')
    expect(acceptAttribute({ allowedFileTypes: { isEnabled: true, types: ['capture=camera'] } })).toBe('image/*')
    expect(acceptAttribute({ capture: 'environment' })).toBe('image/*')
    expect(captureAttribute({ capture: 'environment' })).toBe('environment')
    expect(acceptAttribute({})).toBeUndefined()
    expect(captureAttribute({ allowedFileTypes: { isEnabled: true, types: ['.jpg'] } })).toBeUndefined()
  })

  it('lets through the kind a listed type names, by its other extension or type, and only that kind', () => {
    const types = allowedTypes({ allowedFileTypes: { isEnabled: true, types: ['.jpg'] } })
    expect(acceptsFile(types, { name: 'photo.jpeg', type: '' })).toBe(true)
    expect(acceptsFile(types, { name: 'photo', type: 'image/jpeg' })).toBe(true)
    expect(acceptsFile(types, { name: 'photo.png', type: 'image/png' })).toBe(false)
  })

  it("limits a file to the block's size (MB) within the service's cap, 10 MB by default", () => {
    expect(uploadLimitBytes({})).toBe(10 * 1024 * 1024)
    expect(uploadLimitBytes({ sizeLimit: 2 })).toBe(2 * 1024 * 1024)
    expect(uploadLimitBytes({ sizeLimit: 50 }, 20 * 1024 * 1024)).toBe(20 * 1024 * 1024)
    expect(uploadLimitBytes({ sizeLimit: -1 })).toBe(10 * 1024 * 1024)
  })

  it('answers with the URLs joined by ", " and as attachedFileUrls', () => {
    expect(fileAnswer(['https://s/v1/files/a/x.png', 'https://s/v1/files/b/y.pdf'])).toEqual({
      type: 'text',
      text: 'https://s/v1/files/a/x.png, https://s/v1/files/b/y.pdf',
      attachedFileUrls: ['https://s/v1/files/a/x.png', 'https://s/v1/files/b/y.pdf'],
    })
  })

  it('finds the file id only in an uploaded file address', () => {
    const id = 'A'.repeat(32)
    expect(fileIdOfUrl(`https://chat.example/v1/files/${id}/cv.pdf`)).toBe(id)
    expect(fileIdOfUrl(`https://chat.example/v1/files/${id}/a/b.pdf`)).toBeUndefined()
    expect(fileIdOfUrl(`https://chat.example/x/v1/files/${id}/cv.pdf`)).toBeUndefined()
    expect(fileIdOfUrl('https://chat.example/v1/files/short/cv.pdf')).toBeUndefined()
    expect(fileIdOfUrl('not a url')).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import { fileTypeRule } from '../../src/protocol/file-types'

describe('the allowed file types rule', () => {
  const rules: Array<[string, string[], string[], boolean]> = [
    [
      'extensions gain their kind’s other extensions, then its MIME types',
      ['.jpg', '.png'],
      ['.jpg', '.png', '.jpeg', 'image/jpeg', 'image/jpg', 'image/png'],
      false,
    ],
    ['a MIME type gains its extensions', ['image/jpeg'], ['.jpg', '.jpeg', 'image/jpeg', 'image/jpg'], false],
    ['a family and an unknown extension stay as written', ['image/*', '.xyz'], ['.xyz', 'image/*'], false],
    [
      'bare extensions and several in one entry, any case',
      [' JPG ', '.pdf, .PNG'],
      ['.jpg', '.pdf', '.png', '.jpeg', 'image/jpeg', 'image/jpg', 'application/pdf', 'image/png'],
      false,
    ],
    ['the capture token alone is no type, and asks for the camera', ['capture=camera'], [], true],
    ['the capture token stuck to a type', ['image/*;capture=camera'], ['image/*'], true],
    ['a camcorder or a bare capture asks for the camera too', ['.mp4', 'capture=camcorder'], ['.mp4', 'video/mp4'], true],
    ['a microphone is no camera', ['.mp3', 'capture=microphone'], ['.mp3', 'audio/mpeg'], false],
    ['tokens that are no type are dropped', ['<script>', 'image/', '"quoted"'], [], false],
    ['each name once', ['.jpeg', '.jpg', 'image/jpeg'], ['.jpeg', '.jpg', 'image/jpeg', 'image/jpg'], false],
  ]
  it.each(rules)('%s', (_case, listed, types, camera) => {
    expect(fileTypeRule(listed)).toEqual({ types, camera })
  })
})

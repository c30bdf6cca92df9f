/**
 * The widget's own words: one entry per string, its id, its English text and, in the comment above
 * it, a note for translators (where it shows, what it may be confused with), which the build
 * drops. Every bundled translation (locales/) has every id; a page overrides any of them with the
 * `strings` option. `{name}` is filled in when the text is shown; an entry given as plural forms
 * (`one`, `other`, and whichever others a language has) is chosen by the number `{count}`.
 */
export const ENGLISH = {
  /** Label of the chat's transcript region for screen readers, and a launcher's title, when neither the page nor the flow names the chat. */
  chat: 'Chat',
  /** Button that sends the visitor's answer. One short verb. */
  send: 'Send',
  /** Placeholder and accessible name of the text field where the visitor types an answer. */
  typeAnswer: 'Type your answer…',
  /** Placeholder and name of a field that takes a number. */
  typeNumber: 'Type a number…',
  /** Placeholder and name of a field that takes an e-mail address. */
  typeEmail: 'Type your email…',
  /** Placeholder and name of a field that takes a web address. */
  typeUrl: 'Type a URL…',
  /** Placeholder and name of a field that takes a phone number. */
  typePhone: 'Type your phone number…',
  /** Read by screen readers while the chat loads its first messages. */
  loading: 'Loading the chat…',
  /** Read by screen readers under the visitor's answer while it is on its way. */
  sending: 'Sending…',
  /** Under the visitor's answer when it could not be delivered; the reason follows it. */
  notSent: 'Not sent.',
  /** Under the visitor's answer while the browser is offline: kept, and sent when the network is back (not an error). */
  waitingForNetwork: 'Waiting for the network. Your answer will be sent when you are back online.',
  /** Button that sends a failed answer again. */
  retry: 'Retry',
  /** Button that tries loading the chat again after a failure. */
  tryAgain: 'Try again',
  /** Button that starts a new conversation after the old one expired. */
  newConversation: 'Start a new conversation',
  /** Failure: the chat service cannot be reached (offline, blocked). */
  failNetwork: "Can't reach the chat service. Check your connection and try again.",
  /** Failure: the chat service did not answer in time. */
  failTimeout: 'The chat service is taking too long to answer. Please try again.',
  /** Failure: the chat service answered with something the widget does not understand. */
  failInvalid: "The chat service sent a reply this chat can't read.",
  /** Failure: the conversation is too old to go on. */
  failExpired: 'This conversation has expired. You can start a new one.',
  /** Failure: the chat service had an internal problem. */
  failService: 'The chat service ran into a problem. Please try again in a moment.',
  /** Failure with no more precise reason. */
  failUnknown: 'Something went wrong in the chat.',
  /**
   * Failure: the page embedding the chat is set up wrong (it names no flow, or the service refuses
   * its token or its address). A mistake of the site, not the visitor's: nothing they can do.
   */
  failNotSetUp: 'This chat is not set up yet.',
  /** An AI answer stopped with an error before it was complete. */
  answerFailed: 'The answer could not be completed.',
  /** An AI answer's connection broke while it was arriving. */
  answerInterrupted: 'The answer was interrupted.',
  /** Read by screen readers while an AI answer is being written. */
  answerComing: 'The answer is on its way…',
  /** Button that asks again for an AI answer that failed. */
  retryAnswer: 'Retry answer',
  /** Said (on screen and to screen readers) while the chat waits for another system, such as a payment. */
  waiting: 'Waiting for an update. The chat will go on by itself.',
  /** Placeholder of the disabled text field while the chat waits for another system. */
  waitingPlaceholder: 'Waiting…',
  /** Accessible name of that disabled text field. */
  waitingField: 'Message (unavailable while waiting)',
  /** Said (on screen and to screen readers) while the conversation waits for a person of the site's team to answer. */
  handoffWaiting: 'Waiting for a person…',
  /** Said once a person of the site's team (`{name}`) has taken the conversation. */
  handoffLive: 'You are chatting with {name}.',
  /** Under the person's last message while they write the next one. */
  handoffTyping: '{name} is typing…',
  /** Placeholder and accessible name of the field where the visitor writes to the person. */
  handoffField: 'Write a message…',
  /** Button that stops waiting for a person; the chat goes on without one. */
  handoffLeaveQueue: 'Leave the queue',
  /** Button that ends the conversation with the person; the chat goes on. */
  handoffLeaveChat: 'End the conversation',
  /** Said while the connection to the person is broken and the chat tries again by itself. */
  handoffReconnecting: 'Connection lost. Reconnecting…',
  /** Shown when a remembered conversation could not go on because the chat was changed. */
  restartRepublished: 'This chat has been updated since your last visit, so a new conversation has started.',
  /** Shown when a remembered conversation could not go on because it was too old. */
  restartExpired: 'Your previous conversation had expired, so a new one has started.',
  /** Shown and read out (politely) when the visitor chose Start over in the chat's menu and a new conversation began. */
  restartRequested: 'Started over.',
  /** Accessible name of the button that opens the chat's menu (Start over, the transcript's downloads). */
  chatMenu: 'Chat menu',
  /** Item of the chat's menu that leaves this conversation and begins a new one. A short verb phrase. */
  startOver: 'Start over',
  /** Item of the chat's menu that downloads the conversation as a plain text file. */
  downloadText: 'Download transcript (text)',
  /** Item of the chat's menu that downloads the conversation as a web page made for printing. */
  downloadPage: 'Download transcript (printable page)',
  /** Title of the downloaded transcript (the flow's name follows it). */
  transcriptTitle: 'Conversation transcript',
  /** Who wrote the visitor's messages, in the downloaded transcript. */
  you: 'You',
  /** Read by screen readers before a picture's description when a picture arrives. */
  image: 'Image',
  /** Read by screen readers when a video arrives. */
  video: 'Video',
  /** Read by screen readers when a sound recording arrives. */
  audio: 'Audio',
  /** Read by screen readers when embedded content (a map, a form from another site) arrives; also the frame's name. */
  embed: 'Embedded content',
  /** In place of a picture that could not be shown. */
  imageUnavailable: 'Image unavailable',
  /** In place of a picture that could not be shown, followed by its description (`{alt}`). */
  imageUnavailableAlt: 'Image unavailable: {alt}',
  /** In place of a video that could not be shown. */
  videoUnavailable: 'Video unavailable',
  /** In place of a sound recording that could not be played. */
  audioUnavailable: 'Audio unavailable',
  /** In place of embedded content that could not be shown. */
  embedUnavailable: 'Embedded content unavailable',
  /** Name of an embedded YouTube player (keep the brand name). */
  youtubeVideo: 'YouTube video',
  /** Name of an embedded Vimeo player (keep the brand name). */
  vimeoVideo: 'Vimeo video',
  /** Accessible name of the bar showing how far the visitor is through the flow. */
  progress: 'Progress',
  /** Accessible name of a group of answer buttons. */
  choices: 'Choices',
  /** Accessible name of a group of answer cards with pictures. */
  pictureChoices: 'Picture choices',
  /** Placeholder of the field that narrows a long list of answers. */
  filterChoices: 'Filter the choices',
  /** Read by screen readers as the visitor picks answers in a multiple choice (`{count}` answers picked). */
  chosen: { one: '{count} choice selected', other: '{count} choices selected' },
  /** Accessible name of a group of rating buttons. */
  rating: 'Rating',
  /** Name of one star of a star rating: `{value}` stars out of `{max}`. */
  ratingValue: '{value} of {max}',
  /** Accessible name of a date field. */
  date: 'Date',
  /** Label of the first date of a range. */
  from: 'From',
  /** Label of the last date of a range. */
  to: 'To',
  /** Name of the round button that opens the chat window; `{name}` is the chat's name. */
  openChat: 'Open chat: {name}',
  /** Name of the round button while the chat window is open; `{name}` is the chat's name. */
  closeChatNamed: 'Close chat: {name}',
  /** Name of the close button in the chat window's header. */
  closeChat: 'Close chat',
  /** Name of the small button that hides the message shown beside the chat button. */
  dismiss: 'Dismiss message',
  /** The area of a file question where files can be dropped, when the flow gives no words of its own. */
  fileDrop: 'Drop files here, or choose them.',
  /** Button that opens the file picker for one file. */
  chooseFile: 'Choose a file',
  /** Button that opens the file picker for several files. */
  chooseFiles: 'Choose files',
  /** Under the drop area: the largest file accepted, `{size}` such as "10 MB". */
  fileSizeLimit: 'Up to {size} per file',
  /** Button that sends the uploaded files as the answer (`{count}` files). */
  sendFiles: { one: 'Send {count} file', other: 'Send {count} files' },
  /** Button that skips an optional question. One short verb. */
  skip: 'Skip',
  /** Button that stops a file upload in progress. */
  cancel: 'Cancel',
  /** Accessible name of the cancel button of one file's upload. */
  cancelUpload: 'Cancel uploading {name}',
  /** Accessible name of the button that removes an uploaded file from the answer. */
  removeFile: 'Remove {name}',
  /** Accessible name of the button that tries one file's failed upload again. */
  retryUpload: 'Retry uploading {name}',
  /** Accessible name of one file's progress bar. */
  uploading: 'Uploading {name}',
  /** Said when one file finished uploading. */
  uploaded: '{name} uploaded',
  /** Under a file whose upload failed (a network failure, a refusal). */
  uploadFailed: '{name} could not be uploaded.',
  /** Under a file that cannot upload while the browser is offline: it uploads by itself when the network is back. */
  uploadOffline: '{name} will be uploaded when you are back online.',
  /** A file refused before uploading: over the size limit `{size}`. */
  fileTooBig: '{name} is too big: files may be up to {size}.',
  /** A file refused before uploading: a kind of file the question does not take. */
  fileNotAccepted: '{name} is not a kind of file this question takes.',
  /** The visitor's answer bubble after sending files, when the flow gives no words of its own. */
  filesUploaded: { one: 'File uploaded', other: '{count} files uploaded' },
  /** Accessible name of the list of files chosen for a question. */
  fileList: 'Files',
  /** Accessible name of a row of cards (a picture, a title, a text and buttons each) the visitor scrolls sideways. */
  cards: 'Cards',
  /** Accessible name of one card in that row: the `{index}`th of `{count}`. */
  cardPosition: '{index} of {count}',
  /** Said (on screen and to screen readers) where the flow asks for a payment, which this chat cannot take. */
  paymentUnavailable: 'Payment is not available in this chat.',
  /** Button under that message that goes on with the conversation without paying. One short verb. */
  continue: 'Continue',
}

/** Where a language has a number of forms of a word, by `Intl.PluralRules` category; `other` is always there. */
export type PluralForms = { readonly other: string } & { readonly [category in Intl.LDMLPluralRule]?: string }

export type StringId = keyof typeof ENGLISH

/** A whole translation: every id, with plural forms where English has them. */
export type Translation = { readonly [K in StringId]: (typeof ENGLISH)[K] extends string ? string : PluralForms }

/** What the `strings` option may hold: any ids, each a text or plural forms. */
export type StringOverrides = { readonly [K in StringId]?: Translation[K] }

/**
 * Words the visitor reads that another layer chose (a failure's): `text` in English (or as the
 * service wrote it) and, when they are one of the widget's strings, its `id`, which the views show
 * in the chat's language instead. Carried with the failure, never looked up by their text.
 */
export interface Words {
  text: string
  id?: StringId
}

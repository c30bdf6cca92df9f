export { App, type AppProps, loadLook } from './app'
export { BASE_CSS, canAdoptSheets, css } from './styles'

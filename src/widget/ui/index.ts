export { App, type AppProps } from './app'
export { BASE_CSS, canAdoptSheets, css } from './styles'

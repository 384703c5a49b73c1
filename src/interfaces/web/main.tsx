/** Entry of the web console: styles, then the app into #app. */
import './styles.css';

import { render } from 'preact';

import { App } from './app';

render(<App />, document.getElementById('app')!);
